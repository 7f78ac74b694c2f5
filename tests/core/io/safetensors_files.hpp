// safetensors_files.hpp — what the safetensors tests share: .safetensors files built byte by byte
// and a temporary directory to write them into.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace poslab::safetensors_files {

// ---- Building safetensors files byte by byte, following the format description in the
// huggingface/safetensors README: u64 little-endian header length, JSON header, byte buffer.

struct RawTensor {
    std::string name, dtype, shape;  // shape as JSON: "[2, 3]"
    std::string bytes;
};

inline std::string le64(std::uint64_t value) {
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[i] = char((value >> (8 * i)) & 0xFF);
    return out;
}
template <class T>
inline std::string bytesOf(const std::vector<T>& values) {
    std::string out(values.size() * sizeof(T), '\0');
    std::memcpy(out.data(), values.data(), out.size());
    return out;
}
inline std::string fileFromHeader(const std::string& header, const std::string& data) {
    return le64(header.size()) + header + data;
}
// Offsets laid out one after another, as safetensors.torch.save_file writes them.
inline std::string safetensorsFile(const std::vector<RawTensor>& tensors,
                                   const std::string& metadata = "",
                                   std::size_t trailingSpaces = 0) {
    std::string header = "{", data;
    if (!metadata.empty()) header += "\"__metadata__\":" + metadata;
    for (const RawTensor& t : tensors) {
        if (header.size() > 1) header += ",";
        header += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":" + t.shape +
                  ",\"data_offsets\":[" + std::to_string(data.size()) + "," +
                  std::to_string(data.size() + t.bytes.size()) + "]}";
        data += t.bytes;
    }
    header += "}" + std::string(trailingSpaces, ' ');
    return fileFromHeader(header, data);
}

class TempDir {
  public:
    TempDir() {
        path_ =
            std::filesystem::temp_directory_path() /
            ("poslab_safetensors_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    std::string write(const std::string& name, const std::string& bytes) const {
        const auto file = path_ / name;
        std::ofstream(file, std::ios::binary) << bytes;
        return file.string();
    }

  private:
    static inline int counter_ = 0;
    std::filesystem::path path_;
};

inline std::string f32x(std::size_t count) {
    return std::string(count * 4, '\0');
}

}  // namespace poslab::safetensors_files
