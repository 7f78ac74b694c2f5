#include "poslab/io/safetensors.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "poslab/io/position_table.hpp"
#include "safetensors_files.hpp"

namespace poslab {
namespace {

using namespace safetensors_files;

// ---- Reading every dtype

TEST(SafetensorsTest, ReadsEveryFloatDtypeExactly) {
    const std::vector<double> f64{1.5, -0.1, 1e300, 4.9e-324, 0.0, -7.0};
    const std::vector<float> f32{1.5f, -0.1f, 3.4e38f, 1.4e-45f, 0.0f, -7.0f};
    const std::vector<std::uint16_t> f16{0x3C00, 0xC100, 0x7BFF, 0x0001, 0x7C00, 0x3555};
    const std::vector<std::uint16_t> bf16{0x3F80, 0xC020, 0x4049, 0x0001, 0xFF80, 0x7F7F};
    const std::string bytes = safetensorsFile({{"a.f64", "F64", "[2, 3]", bytesOf(f64)},
                                               {"b.f32", "F32", "[3, 2]", bytesOf(f32)},
                                               {"c.f16", "F16", "[2, 3]", bytesOf(f16)},
                                               {"d.bf16", "BF16", "[6]", bytesOf(bf16)}});
    TempDir dir;
    const std::string path = dir.write("all.safetensors", bytes);

    auto list = listTensors(path);
    ASSERT_TRUE(list) << list.error().message;
    ASSERT_EQ(list->size(), 4u);
    EXPECT_EQ((*list)[0].name, "a.f64");  // header order kept
    EXPECT_EQ((*list)[3].name, "d.bf16");
    EXPECT_EQ((*list)[2].dtype, SafetensorsDtype::F16);
    EXPECT_EQ((*list)[1].shape, (std::vector<std::uint64_t>{3, 2}));

    auto a = readTensor(path, "a.f64");
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_EQ(a->rows, 2u);
    ASSERT_EQ(a->cols, 3u);
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(a->values[k], f64[k]);

    auto b = readTensor(path, "b.f32");
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->rows, 3u);
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(b->values[k], double(f32[k]));

    auto c = readTensor(path, "c.f16");
    ASSERT_TRUE(c) << c.error().message;
    const std::vector<double> halfValues{1.0,      -2.5,           65504.0, std::ldexp(1.0, -24),
                                         INFINITY, 1365.0 / 4096.0};
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(c->values[k], halfValues[k]);

    auto d = readTensor(path, "d.bf16");
    ASSERT_TRUE(d) << d.error().message;
    EXPECT_EQ(d->rows, 1u);  // 1-D becomes one row
    EXPECT_EQ(d->cols, 6u);
    const std::vector<double> bfValues{
        1.0, -2.5, 3.140625, std::ldexp(1.0, -133), -INFINITY, std::ldexp(255.0, 120)};
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(d->values[k], bfValues[k]);

    // The in-memory reader agrees.
    auto memory = parseSafetensorsTensor(bytes, "c.f16");
    ASSERT_TRUE(memory);
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(memory->values[k], halfValues[k]);
}

TEST(SafetensorsTest, MetadataAndTrailingSpacesAreAccepted) {
    const std::vector<float> values{1, 2, 3, 4};
    const std::string bytes = safetensorsFile({{"wpe.weight", "F32", "[2, 2]", bytesOf(values)}},
                                              "{\"format\":\"pt\",\"note\":\"h\\u00e9\"}", 7);
    auto header = parseSafetensors(bytes, "m.safetensors");
    ASSERT_TRUE(header) << header.error().message;
    ASSERT_EQ(header->metadata.size(), 2u);
    EXPECT_EQ(header->metadata[0].first, "format");
    EXPECT_EQ(header->metadata[0].second, "pt");
    EXPECT_EQ(header->metadata[1].second, "h\xC3\xA9");
    ASSERT_EQ(header->tensors.size(), 1u);
    auto table = parseSafetensorsTensor(bytes, "wpe.weight");
    ASSERT_TRUE(table);
    EXPECT_EQ(table->values, (std::vector<double>{1, 2, 3, 4}));
}

TEST(SafetensorsTest, NonFloatTensorsListButDoNotRead) {
    const std::vector<std::int64_t> ids{0, 1, 2, 3};
    const std::vector<float> table{0.5f, 0.25f};
    const std::string bytes = safetensorsFile(
        {{"embeddings.position_ids", "I64", "[1, 4]", bytesOf(ids)},
         {"embeddings.position_embeddings.weight", "F32", "[2, 1]", bytesOf(table)}});
    auto header = parseSafetensors(bytes, "bert.safetensors");
    ASSERT_TRUE(header) << header.error().message;
    EXPECT_EQ(header->tensors[0].dtype, SafetensorsDtype::I64);
    auto ids_ = parseSafetensorsTensor(bytes, "embeddings.position_ids", "bert.safetensors");
    ASSERT_FALSE(ids_);
    EXPECT_EQ(ids_.error().message,
              "bert.safetensors: tensor 'embeddings.position_ids': dtype I64 is not a float table "
              "(PosLab reads F64, F32, F16 and BF16)");
    auto found = findPositionTable(*header, "bert.safetensors");
    ASSERT_TRUE(found);
    EXPECT_EQ(*found, "embeddings.position_embeddings.weight");
}

// ---- Malformed files: each refused with one line naming the file and the problem

struct MalformedCase {
    const char* label;
    std::string bytes;
    std::string message;  // the whole expected message after "bad.safetensors: "
};

std::vector<MalformedCase> malformedCases() {
    const std::string ok = ",\"data_offsets\":[0,8]}}";
    return {
        {"Short", std::string("\x05\x00\x00", 3),
         "truncated: 3 bytes, shorter than the 8-byte header length"},
        {"LengthPastEnd", le64(100) + "{}",
         "header length 100 is larger than the file (2 bytes follow the length)"},
        {"LengthOverLimit", le64(100'000'001) + "{}",
         "header length 100000001 exceeds the 100000000-byte limit"},
        {"NotUtf8", fileFromHeader("{\"a\xFF\":1}", ""),
         "header is not valid UTF-8 (byte 3 of the header)"},
        {"OverlongUtf8", fileFromHeader("{\"\xC0\xAF\":1}", ""),
         "header is not valid UTF-8 (byte 2 of the header)"},
        {"NotAnObject", fileFromHeader("[1, 2]", ""),
         "header is not a JSON object (it must start with '{')"},
        {"NotJson", fileFromHeader("{\"a\": }", ""),
         "header is not valid JSON: parse error at line 1, column 7: syntax error while "
         "parsing value - unexpected '}'; expected '[', '{', or a literal"},
        {"EntryNotObject", fileFromHeader("{\"t\": 3}", ""),
         "tensor 't': expected an object, got 3"},
        {"NoDtype", fileFromHeader("{\"t\":{\"shape\":[2]" + ok, f32x(2)),
         "tensor 't': has no \"dtype\""},
        {"DtypeNotString", fileFromHeader("{\"t\":{\"dtype\":4,\"shape\":[2]" + ok, f32x(2)),
         "tensor 't': \"dtype\" must be a string, got 4"},
        {"UnknownDtype", fileFromHeader("{\"t\":{\"dtype\":\"F128\",\"shape\":[2]" + ok, f32x(2)),
         "tensor 't': unknown dtype 'F128' (the safetensors spec names BOOL, U8, I8, F8_E5M2, "
         "F8_E4M3, F8_E8M0, I16, U16, F16, BF16, I32, U32, F32, I64, U64, F64, C64, F4, F6_E2M3, "
         "F6_E3M2)"},
        {"NoShape", fileFromHeader("{\"t\":{\"dtype\":\"F32\"" + ok, f32x(2)),
         "tensor 't': has no \"shape\""},
        {"NegativeShape", fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[-2]" + ok, f32x(2)),
         "tensor 't': \"shape\" must hold non-negative integers, got [-2]"},
        {"FractionalShape",
         fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[2.5]" + ok, f32x(2)),
         "tensor 't': \"shape\" must hold non-negative integers, got [2.5]"},
        {"ShapeOverflow",
         fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296]" + ok,
                        f32x(2)),
         "tensor 't': shape [4294967296, 4294967296] has more than 2^64 elements"},
        {"BitsOverflow",
         fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[4294967296,1073741824]" + ok,
                        f32x(2)),
         "tensor 't': shape [4294967296, 1073741824] of F32 needs more than 2^64 bits"},
        {"NoOffsets", fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[2]}}", f32x(2)),
         "tensor 't': has no \"data_offsets\""},
        {"OneOffset",
         fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8]}}", f32x(2)),
         "tensor 't': \"data_offsets\" must be [begin, end], two non-negative integers, got [8]"},
        {"EndBeforeBegin",
         fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,0]}}",
                        f32x(2)),
         "tensor 't': data_offsets [8, 0] end before they begin"},
        {"WrongSize", fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[2,3]" + ok, f32x(2)),
         "tensor 't': data_offsets [0, 8) hold 8 bytes, shape [2, 3] of F32 needs 24"},
        {"PastEnd", fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[2]" + ok, f32x(1)),
         "tensor 't': data_offsets end at 8, past the end of the file (4 data bytes)"},
        {"Overlap",
         fileFromHeader("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                        "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                        f32x(3)),
         "tensors 'a' and 'b' overlap (bytes 4 to 8)"},
        {"Hole",
         fileFromHeader("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                        "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,12]}}",
                        f32x(3)),
         "data bytes 4 to 8 belong to no tensor (the spec forbids holes)"},
        {"Trailing", fileFromHeader("{\"t\":{\"dtype\":\"F32\",\"shape\":[2]" + ok, f32x(3)),
         "4 bytes after the last tensor belong to no tensor (the spec forbids trailing data)"},
        {"MetadataNotStrings", fileFromHeader("{\"__metadata__\":{\"a\":1}}", ""),
         "\"__metadata__\" value of 'a' must be a string, got 1"},
    };
}

class SafetensorsMalformedTest : public testing::TestWithParam<MalformedCase> {};

TEST_P(SafetensorsMalformedTest, IsRefusedWithOneLine) {
    const MalformedCase& c = GetParam();
    TempDir dir;
    const std::string path = dir.write("bad.safetensors", c.bytes);
    auto header = readSafetensorsHeader(path);
    ASSERT_FALSE(header);
    EXPECT_EQ(header.error().message, path + ": " + c.message);
    auto memory = parseSafetensors(c.bytes, "bad.safetensors");
    ASSERT_FALSE(memory);
    EXPECT_EQ(memory.error().message, "bad.safetensors: " + c.message);
}

INSTANTIATE_TEST_SUITE_P(Cases, SafetensorsMalformedTest, testing::ValuesIn(malformedCases()),
                         [](const auto& info) { return std::string(info.param.label); });

TEST(SafetensorsTest, TablesMustBeOneOrTwoDimensional) {
    TempDir dir;
    const std::string path = dir.write(
        "t.safetensors", safetensorsFile({{"three", "F32", "[2, 1, 1]", f32x(2)},
                                          {"timm", "F32", "[1, 2, 1]", f32x(2)},
                                          {"empty", "F32", "[0, 4]", ""},
                                          {"scalar", "F32", "[]", f32x(1)},
                                          {"huge", "F32", "[0, 4294967296, 4294967296]", ""}}));
    auto three = readTensor(path, "three");
    ASSERT_FALSE(three);
    EXPECT_EQ(three.error().message, path +
                                         ": tensor 'three': expected a 1-D or 2-D tensor "
                                         "(positions x dimensions) or [1, N, D], got shape [2, "
                                         "1, 1]");
    // timm's pos_embed layout: a leading axis of 1 is a table of N rows (issue 31).
    auto timm = readTensor(path, "timm");
    ASSERT_TRUE(timm) << timm.error().message;
    EXPECT_EQ(timm->rows, 2u);
    EXPECT_EQ(timm->cols, 1u);
    auto empty = readTensor(path, "empty");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().message, path + ": tensor 'empty': the tensor is empty (shape [0, 4])");
    auto scalar = readTensor(path, "scalar");
    ASSERT_FALSE(scalar);
    EXPECT_NE(scalar.error().message.find("got shape []"), std::string::npos);
    auto missing = readTensor(path, "nope");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, path + ": no tensor named 'nope'");
}

TEST(SafetensorsTest, OverTheMemoryCapIsRefused) {
    // 2^31 x 4 doubles = 64 GiB, over the 4 GiB hard cap: refused from the header alone (the
    // file is sparse, so it takes no disk).
    TempDir dir;
    const std::uint64_t bytes = (std::uint64_t(1) << 31) * 4 * 8;
    const std::string header =
        "{\"t\":{\"dtype\":\"F64\",\"shape\":[2147483648,4],"
        "\"data_offsets\":[0," +
        std::to_string(bytes) + "]}}";
    const std::string path = dir.write("huge.safetensors", fileFromHeader(header, ""));
    std::filesystem::resize_file(path, 8 + header.size() + bytes);  // sparse: no disk used
    auto table = readTensor(path, "t");
    ASSERT_FALSE(table);
    EXPECT_EQ(table.error().message.rfind(
                  path + ": tensor 't' of 2147483648 x 4 values exceeds the memory cap", 0),
              0u)
        << table.error().message;
}

// ---- Issue 31: checkpoints as users keep them

TEST(SafetensorsTest, LargeTensorsAreDecodedInChunksExactly) {
    // 3 x 2^20 F32 values: 12 MiB, more than one 8 MiB decode chunk.
    TempDir dir;
    const std::size_t count = 3u << 20;
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = float(i % 1000) * 0.25f - float(i >> 20);
    const std::string path = dir.write(
        "big.safetensors",
        safetensorsFile({{"t", "F32", "[" + std::to_string(count / 4) + ", 4]", bytesOf(values)}}));
    auto table = readTensor(path, "t");
    ASSERT_TRUE(table) << table.error().message;
    ASSERT_EQ(table->values.size(), count);
    for (std::size_t i : {std::size_t(0), (std::size_t(2) << 20) + 7, count - 1}) {
        EXPECT_EQ(table->values[i], double(values[i])) << i;
    }
}

TEST(SafetensorsTest, TheMemoryCapCountsTheReadBufferAndNamesItsSource) {
    // 12 MiB of F32 become 24 MiB of doubles; with the 8 MiB read buffer, 32 MiB. A 30 MiB cap
    // holds the matrix alone but not the read: refused, naming the variable that set the cap.
    TempDir dir;
    const std::size_t count = 3u << 20;
    const std::string path = dir.write(
        "big.safetensors", safetensorsFile({{"t", "F32", "[" + std::to_string(count / 4) + ", 4]",
                                             std::string(count * 4, '\0')}}));
    ::setenv("POSLAB_MEMORY_CAP_MIB", "30", 1);
    auto capped = readTensor(path, "t");
    ::setenv("POSLAB_MEMORY_CAP_MIB", "40", 1);
    auto fits = readTensor(path, "t");
    ::unsetenv("POSLAB_MEMORY_CAP_MIB");
    ASSERT_FALSE(capped);
    EXPECT_EQ(capped.error().message,
              path +
                  ": tensor 't' with its read buffer needs 32 MiB, over the memory cap of 30 "
                  "MiB (set by POSLAB_MEMORY_CAP_MIB)");
    EXPECT_TRUE(fits) << fits.error().message;
}

// ---- Caps and linear parsing (issue #32)

std::string manyTensors(std::size_t count) {
    std::string header = "{";
    for (std::size_t i = 0; i < count; ++i) {
        // Names in descending order: the file's order, not the sorted one, must be kept.
        header += (i ? ",\"t" : "\"t") + std::to_string(count - i) +
                  "\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}";
    }
    return header + "}";
}

TEST(SafetensorsCapsTest, ManyTensorsKeepTheirFileOrder) {
    // ordered_json's linear key lookup made this quadratic (100k tensors: 17 s to list).
    const std::string header = manyTensors(20000);
    auto parsed = parseSafetensorsHeader(header, 8 + header.size(), "m.safetensors");
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->tensors.size(), 20000u);
    EXPECT_EQ(parsed->tensors.front().name, "t20000");
    EXPECT_EQ(parsed->tensors.back().name, "t1");
}

TEST(SafetensorsCapsTest, FiftyThousandTensorsParseInLinearTime) {
    // nlohmann's callback parser walked the whole top-level object at the end of every tensor
    // entry: 100k tensors took minutes to list (and froze the GUI). The keys now come from one
    // linear scan and the tree from the plain parser.
    const std::string header = manyTensors(50000);  // minutes before; a fraction of a second now
    auto parsed = parseSafetensorsHeader(header, 8 + header.size(), "m.safetensors");
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->tensors.size(), 50000u);
    EXPECT_EQ(parsed->tensors[1].name, "t49999");
}

TEST(SafetensorsCapsTest, KeyScanReadsEscapesSpacesAndSkipsValues) {
    // Keys with escapes and spaces before the colon; strings inside values that look like keys
    // (at depth 2 of a tensor, or in metadata values) are not keys.
    const std::string header =
        "{\"b\\u0041\" : {\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},"
        "\"__metadata__\" :{\"z\\\"q\":\"x\\\":{\", \"a\" :\"{\\\"k\\\":1}\"},"
        "\"a\":{\"shape\":[0],\"dtype\":\"F32\",\"data_offsets\":[0,0]}}";
    auto parsed = parseSafetensorsHeader(header, 8 + header.size(), "m.safetensors");
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->tensors.size(), 2u);
    EXPECT_EQ(parsed->tensors[0].name, "bA");
    EXPECT_EQ(parsed->tensors[1].name, "a");
    ASSERT_EQ(parsed->metadata.size(), 2u);
    EXPECT_EQ(parsed->metadata[0].first, "z\"q");
    EXPECT_EQ(parsed->metadata[0].second, "x\":{");
    EXPECT_EQ(parsed->metadata[1].first, "a");
    // A header cut inside a string is still the parser's error, not a crash of the scan.
    const std::string cut = "{\"a\":{\"dtype\":\"F3";
    auto bad = parseSafetensorsHeader(cut, 8 + cut.size(), "m.safetensors");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("m.safetensors: header is not valid JSON"),
              std::string::npos)
        << bad.error().message;
}

TEST(SafetensorsCapsTest, MetadataKeysAreCappedWhileParsing) {
    std::string metadata = "{";
    for (std::size_t i = 0; i <= kMaxSafetensorsMetadata; ++i)
        metadata += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":\"v\"";
    metadata += "}";
    const std::string header = "{\"__metadata__\":" + metadata + "}";
    auto parsed = parseSafetensorsHeader(header, 8 + header.size(), "m.safetensors");
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().message,
              "m.safetensors: header \"__metadata__\" holds more than 65536 keys (PosLab's limit)");
    // Under the cap the keys come back in the file's order.
    const std::string few = "{\"__metadata__\":{\"z\":\"1\",\"a\":\"2\"}}";
    auto kept = parseSafetensorsHeader(few, 8 + few.size(), "m.safetensors");
    ASSERT_TRUE(kept) << kept.error().message;
    ASSERT_EQ(kept->metadata.size(), 2u);
    EXPECT_EQ(kept->metadata[0].first, "z");
    EXPECT_EQ(kept->metadata[1].first, "a");
}

TEST(SafetensorsCapsTest, DeepMetadataIsRefusedWithoutDumpingIt) {
    // Failed before: the error text dumped a value nested 100k deep (stack overflow).
    const std::string header =
        "{\"__metadata__\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
    auto parsed = parseSafetensorsHeader(header, 8 + header.size(), "m.safetensors");
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().message,
              "m.safetensors: header nested deeper than 64 levels of [ and { (PosLab's limit for "
              "JSON files)");
    const std::string shallow = "{\"__metadata__\":[[1,2],[3]]}";
    auto described = parseSafetensorsHeader(shallow, 8 + shallow.size(), "m.safetensors");
    ASSERT_FALSE(described);
    EXPECT_EQ(described.error().message,
              "m.safetensors: \"__metadata__\" must be an object of strings, got an array of 2 "
              "values");
}

TEST(SafetensorsCapsTest, AFifoIsRefusedAtOnce) {
    const std::string fifo = (std::filesystem::temp_directory_path() /
                              ("poslab-st-fifo-" + std::to_string(::getpid()) + ".safetensors"))
                                 .string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto header = readSafetensorsHeader(fifo);  // O_NONBLOCK open through InputFile: no wait
    std::filesystem::remove(fifo);
    ASSERT_FALSE(header);
    EXPECT_EQ(header.error().message, fifo + ": not a regular file (a FIFO)");
}

}  // namespace
}  // namespace poslab
