#include "state/open_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "poslab/base/format.hpp"
#include "poslab/io/input_file.hpp"
#include "poslab/io/json_reader.hpp"
#include "poslab/io/output_file.hpp"
#include "poslab/io/safetensors_index.hpp"
#include "state/session_format.hpp"

namespace poslab::state {

namespace {

// The file's first bytes, through InputFile: regular files only, a FIFO or a device refused
// without blocking.
Result<std::string> readHead(const std::string& path, std::size_t limit) {
    auto input = InputFile::open(path);
    if (!input) return input.error();
    std::string head(limit, '\0');
    const std::size_t got = std::fread(head.data(), 1, limit, input->stream());
    if (std::ferror(input->stream()))
        return Error{escapeForMessage(path, kMessagePathLength) + ": cannot read the file (" +
                     std::strerror(errno) + ")"};
    head.resize(got);
    return head;
}

}  // namespace

// A checkpoint whose tensors include a learned position table goes to the Learned view; one with
// attention projections and no such table (Llama, Mistral, ...) to the RoPE view's Usage tab.
Result<FileToOpen> classifyCheckpoint(const std::string& path) {
    auto tensors = listCheckpointTensors(path);
    if (!tensors) return tensors.error();
    bool projections = false;
    for (const SafetensorsTensorInfo& info : *tensors) {
        if (isPositionTableName(info.name)) return FileToOpen::PositionTable;
        for (std::string_view suffix :
             {"q_proj.weight", "qkv_proj.weight", "query_key_value.weight"}) {
            if (info.name.size() >= suffix.size() &&
                info.name.compare(info.name.size() - suffix.size(), suffix.size(), suffix) == 0)
                projections = true;
        }
    }
    return projections ? FileToOpen::Checkpoint : FileToOpen::PositionTable;
}

Result<FileToOpen> classifyFileToOpen(const std::string& path) {
    const std::string extension = fileExtension(path);
    std::error_code error;
    if (std::filesystem::is_directory(path, error) || isSafetensorsIndexPath(path)) {
        return classifyCheckpoint(path);
    }
    if (extension == ".safetensors") {
        auto head = readHead(path, 1);  // exists, readable, regular: the view reports the rest
        if (!head) return head.error();
        auto kind = classifyCheckpoint(path);
        return kind ? *kind : FileToOpen::PositionTable;  // the Learned view says what is wrong
    }
    if (extension == ".npy") {
        auto head = readHead(path, 1);  // exists, readable, regular: the view reports the rest
        if (!head) return head.error();
        return FileToOpen::PositionTable;
    }
    if (extension != ".json") {
        return Error{
            "cannot open '" + path +
            "': PosLab opens config.json, .npy, .safetensors, checkpoint folders and session .json "
            "files"};
    }
    auto head = readHead(path, 64 * 1024);
    if (!head) return head.error();
    // A session names its format; anything else that is a JSON object is taken as a model's
    // config.json, whose reader then says what it could not use.
    // Bounded like every JSON read (a deep head is not parsed; the keys below decide).
    const auto parsed = parseJson(*head);
    const nlohmann::json object = parsed ? *parsed : nlohmann::json();
    if (object.is_object()) {
        auto format = object.find("format");
        if (format != object.end() && format->is_string() && *format == kSessionFormat)
            return FileToOpen::Session;
        return FileToOpen::ModelConfig;
    }
    // Larger than the head, or not JSON at all: the keys decide as far as they were read.
    // Appended piece by piece: GCC 12 warns (-Wstringop-overflow, wrongly) on "\"" + ... + "\"".
    std::string quotedFormat(1, '"');
    quotedFormat.append(kSessionFormat).push_back('"');
    if (head->find(quotedFormat) != std::string::npos) return FileToOpen::Session;
    if (std::all_of(head->begin(), head->end(), [](unsigned char c) { return std::isspace(c); }))
        return Error{"cannot open '" + path + "': the file is empty"};
    if (head->find_first_not_of(" \t\r\n") != std::string::npos &&
        (*head)[head->find_first_not_of(" \t\r\n")] != '{')
        return Error{"cannot open '" + path + "': not a JSON object"};
    return FileToOpen::ModelConfig;
}

const char* viewFor(FileToOpen kind) {
    switch (kind) {
        case FileToOpen::Session:
            return "";
        case FileToOpen::ModelConfig:
            return "RoPE";
        case FileToOpen::PositionTable:
            return "Learned";
        case FileToOpen::Checkpoint:
            return "RoPE";
    }
    return "";
}

}  // namespace poslab::state
