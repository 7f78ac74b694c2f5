#include "poslab/io/checkpoint_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "poslab/base/parallel.hpp"
#include "poslab/io/input_file.hpp"

namespace poslab {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string shown(std::string_view text) {
    std::string result;
    for (char c : text.substr(0, 80)) result.push_back((unsigned char)c < 0x20 ? '?' : c);
    if (text.size() > 80) result += "...";
    return result;
}

Result<std::string> readConfigText(const std::string& path) {
    auto file = InputFile::open(path);
    if (!file) return file.error();
    if (file->size() > (std::uint64_t(16) << 20)) {
        return Error{path + ": over 16 MiB, too large for a config"};
    }
    std::string text(std::size_t(file->size()), '\0');
    if (std::fread(text.data(), 1, text.size(), file->stream()) != text.size()) {
        return Error{path + ": the file ended early"};
    }
    return text;
}

// The object holding the text model's keys: the root, or text_config of a multimodal config.
const json& textSection(const json& root) {
    if (!root.contains("num_attention_heads") && !root.contains("n_head")) {
        const auto text = root.find("text_config");
        if (text != root.end() && text->is_object()) return *text;
    }
    return root;
}

// A positive integer under one of keys (first present wins); nullopt when none is present.
Result<std::optional<int>> positiveInt(const json& section, std::initializer_list<const char*> keys,
                                       const std::string& file, std::string* usedKey = nullptr) {
    for (const char* key : keys) {
        const auto it = section.find(key);
        if (it == section.end() || it->is_null()) continue;
        if (!it->is_number_integer() || it->get<long long>() < 1 ||
            it->get<long long>() > 1'000'000) {
            return Error{file + ": " + key + " must be a positive integer (got " +
                         shown(it->dump()) + ")"};
        }
        if (usedKey) *usedKey = key;
        return std::optional<int>(int(it->get<long long>()));
    }
    return std::optional<int>();
}

bool truthy(const json& section, const char* key) {
    const auto it = section.find(key);
    return it != section.end() && it->is_boolean() && it->get<bool>();
}

// Families whose HF checkpoints store rotary pairs as the modeling code pairs them, checked
// against each model's apply_rotary_pos_emb: rotate_half (Half) unless hf_config says otherwise.
bool isKnownFamily(const std::string& type) {
    static const char* const known[] = {
        "llama",     "mistral",    "mixtral",     "qwen2",    "qwen2_moe",   "qwen3",
        "qwen3_moe", "gemma",      "gemma2",      "gemma3",   "gemma3_text", "olmo",
        "olmo2",     "olmoe",      "phi",         "phi3",     "gpt_neox",    "falcon",
        "stablelm",  "starcoder2", "granite",     "nemotron", "persimmon",   "gptj",
        "codegen",   "llama4",     "llama4_text", "smollm3",  "qwen2_vl",    "qwen2_5_vl",
        "exaone",    "internlm2",  "yi",          "baichuan"};
    for (const char* name : known) {
        if (type == name) return true;
    }
    return false;
}

// Splits "model.layers.12.self_attn" + suffix into the pattern "model.layers.{}.self_attn" and 12.
bool layerOf(std::string_view name, std::string_view suffix, std::string& pattern, int& layer) {
    if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) {
        return false;
    }
    const std::string_view stem = name.substr(0, name.size() - suffix.size());
    // The last dot-separated component made only of digits.
    std::size_t end = stem.size();
    while (end > 0) {
        std::size_t begin = stem.rfind('.', end - 1);
        begin = begin == std::string_view::npos ? 0 : begin + 1;
        const std::string_view part = stem.substr(begin, end - begin);
        if (!part.empty() && part.size() <= 6 &&
            std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            pattern = std::string(stem.substr(0, begin)) + "{}" + std::string(stem.substr(end));
            layer = std::stoi(std::string(part));
            return true;
        }
        if (begin == 0) break;
        end = begin - 1;
    }
    return false;
}

bool looksNonText(std::string_view pattern) {
    for (std::string_view word : {"vision", "visual", "audio", "image", "encoder.", "mm_"}) {
        if (pattern.find(word) != std::string_view::npos) return true;
    }
    return false;
}

struct LayerGroup {
    std::map<int, std::string> layers;  // layer -> tensor name
};

// The query tensors of each layer for one suffix, grouped by name pattern; one group chosen.
Result<std::map<int, std::string>> chooseGroup(const std::map<std::string, LayerGroup>& groups,
                                               int expectedLayers, const std::string& source,
                                               std::string_view suffix) {
    std::vector<const std::pair<const std::string, LayerGroup>*> candidates;
    for (const auto& entry : groups) candidates.push_back(&entry);
    auto keep = [&](auto predicate) {
        std::vector<const std::pair<const std::string, LayerGroup>*> kept;
        for (auto* c : candidates) {
            if (predicate(*c)) kept.push_back(c);
        }
        if (!kept.empty()) candidates = kept;
    };
    if (candidates.size() > 1 && expectedLayers > 0) {
        keep([&](const auto& c) { return int(c.second.layers.size()) == expectedLayers; });
    }
    if (candidates.size() > 1) keep([](const auto& c) { return !looksNonText(c.first); });
    if (candidates.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < candidates.size() && i < 3; ++i) {
            list += (i ? ", " : "") + shown(candidates[i]->first + std::string(suffix));
        }
        return Error{source + ": " + std::to_string(candidates.size()) +
                     " stacks of attention layers (" + list +
                     "); PosLab reads one text model's layers"};
    }
    return candidates.front()->second.layers;
}

void sumSquaresOfRows(SafetensorsDtype dtype, const char* data, std::size_t rows, std::size_t cols,
                      double* out) {
    const std::size_t rowBytes = cols * std::size_t(dtypeBits(dtype) / 8);
    for (std::size_t r = 0; r < rows; ++r) out[r] = sumOfSquares(dtype, data + r * rowBytes, cols);
}

const std::array<float, 65536>& halfTable() {
    static const auto table = [] {
        auto values = std::make_unique<std::array<float, 65536>>();
        for (std::size_t bits = 0; bits < 65536; ++bits) {
            (*values)[bits] = float(halfToDouble(std::uint16_t(bits)));
        }
        return values;
    }();
    return *table;
}

// A contiguous range of rows to read and where their squares go.
struct RowRun {
    int shard = 0;
    std::uint64_t offset = 0;  // file offset of the first row
    std::size_t rows = 0;
    std::size_t cols = 0;
    SafetensorsDtype dtype = SafetensorsDtype::F32;
    double* out = nullptr;  // rows entries
};

struct FdCloser {
    int fd = -1;
    ~FdCloser() {
        if (fd >= 0) ::close(fd);
    }
};

bool preadAll(int fd, char* out, std::size_t count, std::uint64_t offset) {
    while (count > 0) {
        const ssize_t got = ::pread(fd, out, count, off_t(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        out += got;
        count -= std::size_t(got);
        offset += std::uint64_t(got);
    }
    return true;
}

}  // namespace

const char* qkvPackingName(QkvPacking packing) {
    switch (packing) {
        case QkvPacking::Separate:
            return "q_proj + k_proj";
        case QkvPacking::QkvBlocks:
            return "fused qkv_proj [q | k | v]";
        case QkvPacking::PerHead:
            return "fused query_key_value, per head [q | k | v]";
        case QkvPacking::MultiQuery:
            return "fused query_key_value, multi-query [q... | k | v]";
        case QkvPacking::Grouped:
            return "fused query_key_value, per KV group [q... | k | v]";
    }
    return "?";
}

double sumOfSquares(SafetensorsDtype dtype, const char* data, std::size_t count) {
    // 16 independent float lanes: the compiler vectorises them (a single running sum would be a
    // serial chain); each lane adds count / 16 terms, so float keeps ~1e-6 relative accuracy
    // for rows of thousands, far below BF16's 4e-3 step.
    constexpr std::size_t kLanes = 16;
    float lanes[kLanes] = {};
    const std::size_t whole = count - count % kLanes;
    double tail = 0;
    switch (dtype) {
        case SafetensorsDtype::BF16: {
            for (std::size_t i = 0; i < whole; i += kLanes) {
                std::uint16_t bits[kLanes];
                std::memcpy(bits, data + 2 * i, sizeof bits);
                for (std::size_t k = 0; k < kLanes; ++k) {
                    const float x = std::bit_cast<float>(std::uint32_t(bits[k]) << 16);
                    lanes[k] += x * x;
                }
            }
            for (std::size_t i = whole; i < count; ++i) {
                std::uint16_t bits;
                std::memcpy(&bits, data + 2 * i, 2);
                const double x = bfloat16ToDouble(bits);
                tail += x * x;
            }
            break;
        }
        case SafetensorsDtype::F16: {
            const auto& table = halfTable();
            for (std::size_t i = 0; i < whole; i += kLanes) {
                std::uint16_t bits[kLanes];
                std::memcpy(bits, data + 2 * i, sizeof bits);
                for (std::size_t k = 0; k < kLanes; ++k) {
                    const float x = table[bits[k]];
                    lanes[k] += x * x;
                }
            }
            for (std::size_t i = whole; i < count; ++i) {
                std::uint16_t bits;
                std::memcpy(&bits, data + 2 * i, 2);
                const double x = halfToDouble(bits);
                tail += x * x;
            }
            break;
        }
        case SafetensorsDtype::F32: {
            // F32 weights keep their precision: squares summed in double.
            double wide[kLanes] = {};
            for (std::size_t i = 0; i < whole; i += kLanes) {
                float values[kLanes];
                std::memcpy(values, data + 4 * i, sizeof values);
                for (std::size_t k = 0; k < kLanes; ++k) wide[k] += double(values[k]) * values[k];
            }
            for (std::size_t i = whole; i < count; ++i) {
                float x;
                std::memcpy(&x, data + 4 * i, 4);
                tail += double(x) * x;
            }
            for (double w : wide) tail += w;
            return tail;
        }
        case SafetensorsDtype::F64: {
            for (std::size_t i = 0; i < count; ++i) {
                double x;
                std::memcpy(&x, data + 8 * i, 8);
                tail += x * x;
            }
            return tail;
        }
        default:
            return 0;
    }
    double total = tail;
    for (float lane : lanes) total += double(lane);
    return total;
}

Result<CheckpointAttention> describeCheckpointAttention(const std::string& path,
                                                        const AttentionOverrides& overrides) {
    auto checkpoint = openCheckpoint(path);
    if (!checkpoint) return checkpoint.error();
    CheckpointAttention result;
    result.checkpoint = std::move(checkpoint).value();
    const std::string& source = result.checkpoint.source;
    result.configPath = (fs::path(result.checkpoint.directory) / "config.json").string();
    std::error_code error;
    if (!fs::is_regular_file(result.configPath, error)) {
        return Error{source +
                     ": no config.json beside it (needed for the heads, KV heads and "
                     "head size)"};
    }
    auto text = readConfigText(result.configPath);
    if (!text) return text.error();
    const std::string& configName = result.configPath;

    json root;
    try {
        root = json::parse(*text);
    } catch (const std::exception&) {
        return Error{configName + ": not valid JSON"};
    }
    if (!root.is_object()) return Error{configName + ": not a JSON object"};
    const json& model = textSection(root);

    // Multi-head latent attention keeps q and k in low-rank factors with a separate RoPE part.
    for (const char* key : {"kv_lora_rank", "q_lora_rank"}) {
        if (model.contains(key) && !model[key].is_null()) {
            return Error{configName + ": " + key +
                         " is set: multi-head latent attention (DeepSeek-V2/V3) stores its "
                         "decoupled RoPE keys in kv_a_proj_with_mqa, which PosLab does not read"};
        }
    }
    if (truthy(model, "alibi")) {
        return Error{configName + ": alibi is true: this Falcon model has no rotary embedding"};
    }

    auto config = parseHfConfig(*text);
    if (!config) return Error{configName + ": " + config.error().message};
    result.config = std::move(config).value();
    result.headDim = result.config.rope.headDim;
    result.layers = int(result.config.layers.size());

    std::string headsKey, kvKey;
    auto heads =
        positiveInt(model, {"num_attention_heads", "n_head", "num_heads"}, configName, &headsKey);
    if (!heads) return heads.error();
    if (!*heads) return Error{configName + ": num_attention_heads is absent"};
    result.heads = **heads;
    auto kv = positiveInt(model, {"num_key_value_heads", "num_kv_heads", "n_head_kv"}, configName,
                          &kvKey);
    if (!kv) return kv.error();
    auto hidden = positiveInt(model, {"hidden_size", "n_embd", "d_model"}, configName);
    if (!hidden) return hidden.error();
    result.hidden = hidden->value_or(0);

    const std::string& type = result.config.modelType;
    const bool falcon = type == "falcon" || type == "RefinedWeb" || type == "RefinedWebModel";
    bool newArchitecture = false, multiQuery = false;
    if (falcon) {
        newArchitecture = truthy(model, "new_decoder_architecture");
        multiQuery = !model.contains("multi_query") || truthy(model, "multi_query");  // default
        if (!newArchitecture && multiQuery) {
            result.kvHeads = 1;
            result.notes.push_back("Falcon multi_query: one key head shared by all queries");
        } else {
            result.kvHeads = kv->value_or(result.heads);
        }
    } else {
        result.kvHeads = kv->value_or(result.heads);
        if (!*kv) result.notes.push_back("num_key_value_heads absent: one key head per query");
    }
    if (result.heads % result.kvHeads != 0) {
        return Error{configName + ": " + std::to_string(result.heads) + " query heads are not a " +
                     "multiple of " + std::to_string(result.kvHeads) + " key heads (" + kvKey +
                     ")"};
    }

    // ---- Pairing
    if (overrides.pairing) {
        result.config.rope.pairing = *overrides.pairing;
        result.pairingSource = std::string("pairing ") +
                               std::string(pairingName(*overrides.pairing)) +
                               " as asked (--pairing)";
    } else if (result.config.rope.pairing == RopePairing::Interleaved) {
        result.pairingSource = (type.empty() ? std::string("the config") : type) +
                               " rotates rows (2i, 2i + 1): interleaved pairing";
    } else if (isKnownFamily(type)) {
        result.pairingSource = type +
                               " checkpoints are stored for rotate_half: pair i is rows i and "
                               "i + d/2 of each head";
    } else {
        return Error{configName + ": " +
                     (type.empty() ? std::string("model_type is absent")
                                   : "model_type '" + shown(type) + "' is not one PosLab knows") +
                     ", so whether rows pair as (i, i + d/2) or (2i, 2i + 1) is unknown; name it "
                     "with --pairing half|interleaved"};
    }

    // ---- Tensors
    struct Candidate {
        std::string_view suffix;
        QkvPacking packing;
    };
    std::map<std::string, LayerGroup> queryGroups, fusedGroups, perHeadGroups;
    bool sawMla = false;
    for (const CheckpointTensor& tensor : result.checkpoint.tensors) {
        std::string pattern;
        int layer = 0;
        const std::string& name = tensor.info.name;
        if (name.find("kv_a_proj_with_mqa") != std::string::npos) sawMla = true;
        if (layerOf(name, ".q_proj.weight", pattern, layer)) {
            queryGroups[pattern].layers[layer] = name;
        } else if (layerOf(name, ".qkv_proj.weight", pattern, layer)) {
            fusedGroups[pattern].layers[layer] = name;
        } else if (layerOf(name, ".query_key_value.weight", pattern, layer)) {
            perHeadGroups[pattern].layers[layer] = name;
        }
    }
    if (sawMla) {
        return Error{source +
                     ": kv_a_proj_with_mqa tensors: multi-head latent attention "
                     "(DeepSeek-V2/V3) is not read"};
    }
    std::map<int, std::string> chosen;
    if (!queryGroups.empty()) {
        result.packing = QkvPacking::Separate;
        auto group = chooseGroup(queryGroups, result.layers, source, ".q_proj.weight");
        if (!group) return group.error();
        chosen = std::move(group).value();
    } else if (!fusedGroups.empty()) {
        result.packing = QkvPacking::QkvBlocks;
        auto group = chooseGroup(fusedGroups, result.layers, source, ".qkv_proj.weight");
        if (!group) return group.error();
        chosen = std::move(group).value();
    } else if (!perHeadGroups.empty()) {
        if (falcon) {
            result.packing = newArchitecture ? QkvPacking::Grouped
                             : multiQuery    ? QkvPacking::MultiQuery
                                             : QkvPacking::PerHead;
        } else if (type == "gpt_neox" || type == "persimmon" || type == "gpt_neox_japanese") {
            result.packing = QkvPacking::PerHead;
        } else {
            return Error{source + ": fused query_key_value tensors, but model_type '" +
                         shown(type) +
                         "' does not say how q, k and v are packed (PosLab knows gpt_neox, "
                         "persimmon and falcon)"};
        }
        auto group = chooseGroup(perHeadGroups, result.layers, source, ".query_key_value.weight");
        if (!group) return group.error();
        chosen = std::move(group).value();
    } else {
        return Error{source +
                     ": no attention projections found (looked for *.q_proj.weight, "
                     "*.qkv_proj.weight and *.query_key_value.weight among " +
                     std::to_string(result.checkpoint.tensors.size()) + " tensors)"};
    }
    const int found = int(chosen.size());
    if (result.layers == 0) {
        result.layers = found;
        result.notes.push_back("num_hidden_layers absent: " + std::to_string(found) +
                               " layers found by name");
    }
    if (found != result.layers || chosen.begin()->first != 0 ||
        chosen.rbegin()->first != found - 1) {
        int missing = 0;
        while (missing < result.layers && chosen.count(missing)) ++missing;
        return Error{source + ": config.json gives " + std::to_string(result.layers) +
                     " layers (num_hidden_layers), but the query projection of layer " +
                     std::to_string(missing) + " is missing (" + std::to_string(found) + " found)"};
    }

    // ---- Shapes against the config
    const std::uint64_t hd = std::uint64_t(result.headDim);
    const std::uint64_t qRows = std::uint64_t(result.heads) * hd;
    const std::uint64_t kRows = std::uint64_t(result.kvHeads) * hd;
    std::uint64_t columns = 0;
    auto checkTensor = [&](const std::string& name, std::uint64_t rows,
                           const std::string& what) -> Status {
        const CheckpointTensor* tensor = result.checkpoint.find(name);
        if (tensor == nullptr) return Error{source + ": no tensor named '" + shown(name) + "'"};
        const auto& info = tensor->info;
        if (!isReadableDtype(info.dtype)) {
            return Error{source + ": '" + shown(name) + "' is " +
                         std::string(dtypeName(info.dtype)) +
                         "; PosLab reads BF16, F16, F32 and F64 weights (quantised checkpoints "
                         "are not read)"};
        }
        if (info.shape.size() != 2 || info.shape[0] != rows || info.shape[1] == 0 ||
            (columns != 0 && info.shape[1] != columns)) {
            return Error{source + ": '" + shown(name) + "' has shape " + shapeText(info.shape) +
                         ", but config.json gives " + what + " = " + std::to_string(rows) +
                         " rows" + (columns ? " of " + std::to_string(columns) + " columns" : "")};
        }
        columns = info.shape[1];
        result.qkBytes += (info.end - info.begin);
        return success();
    };
    const std::string headText = std::to_string(result.heads) + " heads x " + std::to_string(hd);
    const std::string kvText = std::to_string(result.kvHeads) + " KV heads x " + std::to_string(hd);
    for (int layer = 0; layer < result.layers; ++layer) {
        QkLayerTensors names;
        names.query = chosen[layer];
        if (result.packing == QkvPacking::Separate) {
            names.key = names.query.substr(0, names.query.size() - 13) + "k_proj.weight";
            if (auto s = checkTensor(names.query, qRows, headText); !s) return s.error();
            if (auto s = checkTensor(names.key, kRows, kvText); !s) return s.error();
        } else {
            names.key = names.query;
            std::uint64_t rows = 0;
            std::string what;
            switch (result.packing) {
                case QkvPacking::QkvBlocks:
                case QkvPacking::MultiQuery:
                case QkvPacking::Grouped:
                    rows = qRows + 2 * kRows;
                    what = "(" + std::to_string(result.heads) + " + 2 x " +
                           std::to_string(result.kvHeads) + ") heads x " + std::to_string(hd);
                    break;
                default:
                    rows = 3 * qRows;
                    what = "3 x " + headText;
                    if (result.kvHeads != result.heads) {
                        return Error{configName + ": " + kvText +
                                     " do not fit per-head [q | k | v] packing of " + headText};
                    }
            }
            if (auto s = checkTensor(names.query, rows, what); !s) return s.error();
        }
        result.tensors.push_back(std::move(names));
    }
    if (result.hidden != 0 && columns != std::uint64_t(result.hidden)) {
        result.notes.push_back("projections have " + std::to_string(columns) +
                               " input columns; hidden_size is " + std::to_string(result.hidden));
    }
    result.hidden = int(columns);
    // Bytes actually read: the q and k rows (fused tensors hold v rows as well).
    if (result.packing != QkvPacking::Separate) {
        result.qkBytes = 0;
        for (const auto& names : result.tensors) {
            const auto& info = result.checkpoint.find(names.query)->info;
            result.qkBytes += (qRows + kRows) * columns * std::uint64_t(dtypeBits(info.dtype) / 8);
        }
    }
    result.notes.push_back(std::to_string(result.layers) + " layers, " + headText + ", " +
                           std::to_string(result.kvHeads) + " KV heads, " +
                           qkvPackingName(result.packing));
    return result;
}

Result<QkRowSquares> readQkRowSquares(const CheckpointAttention& attention,
                                      const ReadProgress& progress) {
    QkRowSquares result;
    result.layers = attention.layers;
    result.heads = attention.heads;
    result.kvHeads = attention.kvHeads;
    result.headDim = attention.headDim;
    const std::size_t hd = std::size_t(attention.headDim);
    const std::size_t heads = std::size_t(attention.heads), kv = std::size_t(attention.kvHeads);
    try {
        result.query.assign(std::size_t(attention.layers) * heads * hd, 0.0);
        result.key.assign(std::size_t(attention.layers) * kv * hd, 0.0);
    } catch (const std::bad_alloc&) {
        return Error{attention.checkpoint.source + ": out of memory for the row norms"};
    }

    // ---- Which rows to read, in file order
    std::vector<RowRun> runs;
    for (int layer = 0; layer < attention.layers; ++layer) {
        const auto& names = attention.tensors[std::size_t(layer)];
        double* q = result.query.data() + std::size_t(layer) * heads * hd;
        double* k = result.key.data() + std::size_t(layer) * kv * hd;
        const CheckpointTensor* qt = attention.checkpoint.find(names.query);
        const CheckpointTensor* kt = attention.checkpoint.find(names.key);
        auto run = [&](const CheckpointTensor* t, std::size_t firstRow, std::size_t rows,
                       double* out) {
            const std::size_t cols = std::size_t(t->info.shape[1]);
            const std::size_t rowBytes = cols * std::size_t(dtypeBits(t->info.dtype) / 8);
            const auto& shard = attention.checkpoint.shards[std::size_t(t->shard)];
            runs.push_back({t->shard, shard.dataStart + t->info.begin + firstRow * rowBytes, rows,
                            cols, t->info.dtype, out});
        };
        switch (attention.packing) {
            case QkvPacking::Separate:
                run(qt, 0, heads * hd, q);
                run(kt, 0, kv * hd, k);
                break;
            case QkvPacking::QkvBlocks:
                run(qt, 0, heads * hd, q);
                run(qt, heads * hd, kv * hd, k);
                break;
            case QkvPacking::PerHead:  // head h: rows [3h, 3h + 1, 3h + 2] x hd = q, k, v
                for (std::size_t h = 0; h < heads; ++h) {
                    run(qt, 3 * h * hd, hd, q + h * hd);
                    run(qt, (3 * h + 1) * hd, hd, k + h * hd);
                }
                break;
            case QkvPacking::MultiQuery:
                run(qt, 0, heads * hd, q);
                run(qt, heads * hd, hd, k);
                break;
            case QkvPacking::Grouped: {  // group g: q heads g*per .. , then k, then v
                const std::size_t per = heads / kv;
                for (std::size_t g = 0; g < kv; ++g) {
                    const std::size_t first = g * (per + 2) * hd;
                    run(qt, first, per * hd, q + g * per * hd);
                    run(qt, first + per * hd, hd, k + g * hd);
                }
                break;
            }
        }
    }
    std::stable_sort(runs.begin(), runs.end(), [](const RowRun& a, const RowRun& b) {
        return a.shard != b.shard ? a.shard < b.shard : a.offset < b.offset;
    });
    std::uint64_t total = 0;
    for (const RowRun& r : runs) total += r.rows * r.cols * std::size_t(dtypeBits(r.dtype) / 8);

    // ---- Read them in blocks of whole rows, the runs split between the cores: on an idle
    // machine one core copies from the page cache while the other sums squares, so the whole
    // read takes about as long as `cat` of the same bytes.
    std::size_t largestRow = 0;
    for (const RowRun& r : runs) {
        largestRow = std::max(largestRow, r.cols * std::size_t(dtypeBits(r.dtype) / 8));
    }
    const std::size_t blockBytes = std::max(kQkReadBlockBytes, largestRow);
    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> stop{false};
    std::mutex failureLock;
    std::optional<Error> failure;
    auto fail = [&](Error error) {
        std::lock_guard<std::mutex> lock(failureLock);
        if (!failure) failure = std::move(error);
        stop = true;
    };
    const std::thread::id caller = std::this_thread::get_id();
    if (progress && !progress(0, total)) return Error{"cancelled"};
    parallelFor((long long)runs.size(), 2, [&](long long firstRun, long long lastRun) {
        std::vector<char> block;
        try {
            block.resize(blockBytes);
        } catch (const std::bad_alloc&) {
            return fail(Error{attention.checkpoint.source + ": out of memory for the read buffer"});
        }
        FdCloser file;
        int openShard = -1;
        for (long long k = firstRun; k < lastRun && !stop; ++k) {
            const RowRun& r = runs[std::size_t(k)];
            const auto& shard = attention.checkpoint.shards[std::size_t(r.shard)];
            if (r.shard != openShard) {
                if (file.fd >= 0) ::close(file.fd);
                file.fd = ::open(shard.path.c_str(), O_RDONLY | O_CLOEXEC);
                if (file.fd < 0) {
                    return fail(Error{shard.path + ": cannot open the file (" +
                                      std::strerror(errno) + ")"});
                }
                ::posix_fadvise(file.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
                openShard = r.shard;
            }
            const std::size_t rowBytes = r.cols * std::size_t(dtypeBits(r.dtype) / 8);
            const std::size_t rowsPerBlock = block.size() / rowBytes;
            for (std::size_t first = 0; first < r.rows && !stop; first += rowsPerBlock) {
                const std::size_t rows = std::min(rowsPerBlock, r.rows - first);
                if (!preadAll(file.fd, block.data(), rows * rowBytes,
                              r.offset + first * rowBytes)) {
                    return fail(Error{shard.path +
                                      ": the file ended (or could not be read) inside a "
                                      "projection"});
                }
                sumSquaresOfRows(r.dtype, block.data(), rows, r.cols, r.out + first);
                const std::uint64_t now = done += rows * rowBytes;
                // Progress is reported from the calling thread only: callers need no locks.
                if (progress && std::this_thread::get_id() == caller && !progress(now, total)) {
                    return fail(Error{"cancelled"});
                }
            }
        }
    });
    if (failure) return *failure;
    if (progress && !progress(done, total)) return Error{"cancelled"};
    result.bytesRead = done.load();
    for (double v : result.query) {
        if (!std::isfinite(v)) {
            return Error{attention.checkpoint.source +
                         ": a query projection holds infinite or NaN weights"};
        }
    }
    for (double v : result.key) {
        if (!std::isfinite(v)) {
            return Error{attention.checkpoint.source +
                         ": a key projection holds infinite or NaN weights"};
        }
    }
    return result;
}

}  // namespace poslab
