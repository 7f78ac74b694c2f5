#include "poslab/io/safetensors_index.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <system_error>

#include "poslab/io/input_file.hpp"

namespace poslab {

namespace {

namespace fs = std::filesystem;

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Text for a message: at most 60 characters, control bytes shown as '?'.
std::string shown(std::string_view text) {
    std::string result;
    for (char c : text.substr(0, 60)) result.push_back((unsigned char)c < 0x20 ? '?' : c);
    if (text.size() > 60) result += "...";
    return result;
}

Result<std::string> readSmallFile(const std::string& path, std::uint64_t limit) {
    auto file = InputFile::open(path);
    if (!file) return file.error();
    if (file->size() > limit) {
        return Error{path + ": " + std::to_string(file->size()) + " bytes, over the " +
                     std::to_string(limit >> 20) + " MiB an index may hold"};
    }
    std::string text;
    try {
        text.resize(std::size_t(file->size()));
    } catch (const std::bad_alloc&) {
        return Error{path + ": out of memory for the index"};
    }
    if (std::fread(text.data(), 1, text.size(), file->stream()) != text.size()) {
        return Error{path + ": the file ended early while reading it"};
    }
    return text;
}

// A shard name must stay in the index's folder: a plain file name.
bool isPlainFileName(std::string_view name) {
    if (name.empty() || name == "." || name == "..") return false;
    for (char c : name) {
        if (c == '/' || c == '\\' || c == '\0') return false;
    }
    return true;
}

Result<std::string> resolveFolder(const std::string& folder) {
    std::error_code error;
    const fs::path dir(folder);
    for (const char* preferred : {"model.safetensors.index.json", "model.safetensors"}) {
        if (fs::is_regular_file(dir / preferred, error)) return (dir / preferred).string();
    }
    std::vector<std::string> indexes, files;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (isSafetensorsIndexPath(name)) indexes.push_back(it->path().string());
        if (isSafetensorsFilePath(name)) files.push_back(it->path().string());
    }
    if (error) return Error{folder + ": cannot list the folder (" + error.message() + ")"};
    if (indexes.size() == 1) return indexes[0];
    if (indexes.empty() && files.size() == 1) return files[0];
    if (indexes.size() > 1) {
        return Error{folder + ": " + std::to_string(indexes.size()) +
                     " *.safetensors.index.json files; name the one to read"};
    }
    if (files.empty()) {
        return Error{folder +
                     ": no model.safetensors, model.safetensors.index.json or other "
                     "*.safetensors file in the folder"};
    }
    return Error{folder + ": " + std::to_string(files.size()) +
                 " .safetensors files and no model.safetensors.index.json to say how they go "
                 "together; name one file or add the index"};
}

Result<Checkpoint> openSingle(const std::string& path) {
    auto header = readSafetensorsHeader(path);
    if (!header) return header.error();
    Checkpoint checkpoint;
    checkpoint.source = path;
    checkpoint.directory = fs::path(path).parent_path().string();
    checkpoint.shards.push_back({path, header->dataStart});
    for (auto& info : header.value().tensors) checkpoint.tensors.push_back({std::move(info), 0});
    return checkpoint;
}

Result<Checkpoint> openIndex(const std::string& path) {
    auto text = readSmallFile(path, kMaxSafetensorsIndexBytes);
    if (!text) return text.error();
    auto map = parseSafetensorsIndex(*text, path);
    if (!map) return map.error();
    Checkpoint checkpoint;
    checkpoint.source = path;
    checkpoint.sharded = true;
    const fs::path folder = fs::path(path).parent_path();
    checkpoint.directory = folder.string();
    std::map<std::string, int> shardIndex;
    std::vector<SafetensorsHeader> headers;
    for (const auto& [tensor, shardName] : *map) {
        if (shardIndex.count(shardName)) continue;
        const std::string shardPath = (folder / shardName).string();
        std::error_code error;
        if (!fs::exists(shardPath, error)) {
            return Error{path + ": shard '" + shown(shardName) + "' (holding '" + shown(tensor) +
                         "') is missing from " + (folder.empty() ? "." : folder.string())};
        }
        auto header = readSafetensorsHeader(shardPath);
        if (!header) return header.error();
        shardIndex[shardName] = int(headers.size());
        checkpoint.shards.push_back({shardPath, header->dataStart});
        headers.push_back(std::move(header).value());
    }
    for (const auto& [tensor, shardName] : *map) {
        const int shard = shardIndex[shardName];
        const SafetensorsTensorInfo* info = headers[std::size_t(shard)].find(tensor);
        if (info == nullptr) {
            return Error{path + ": the index places '" + shown(tensor) + "' in '" +
                         shown(shardName) + "', whose header does not list it"};
        }
        checkpoint.tensors.push_back({*info, shard});
    }
    return checkpoint;
}

}  // namespace

bool isSafetensorsIndexPath(std::string_view path) {
    return endsWith(lowered(path), ".safetensors.index.json");
}

bool isSafetensorsFilePath(std::string_view path) {
    return endsWith(lowered(path), ".safetensors");
}

const CheckpointTensor* Checkpoint::find(std::string_view name) const {
    for (const auto& tensor : tensors) {
        if (tensor.info.name == name) return &tensor;
    }
    return nullptr;
}

Result<std::vector<std::pair<std::string, std::string>>> parseSafetensorsIndex(
    std::string_view json, std::string_view name) {
    const std::string file(name);
    nlohmann::ordered_json root;
    try {
        root = nlohmann::ordered_json::parse(json.begin(), json.end());
    } catch (const std::bad_alloc&) {
        return Error{file + ": out of memory for the index"};
    } catch (const std::exception& error) {
        std::string message = error.what();
        const std::size_t end = message.find("] ");
        if (message.rfind("[json.exception.", 0) == 0 && end != std::string::npos) {
            message = message.substr(end + 2);
        }
        return Error{file + ": not valid JSON: " + shown(message)};
    }
    if (!root.is_object()) return Error{file + ": not a JSON object"};
    const auto weightMap = root.find("weight_map");
    if (weightMap == root.end()) {
        return Error{file +
                     ": no \"weight_map\" (a safetensors index maps each tensor to its "
                     "shard)"};
    }
    if (!weightMap->is_object()) {
        return Error{file + ": \"weight_map\" must be an object of tensor name -> shard file"};
    }
    std::vector<std::pair<std::string, std::string>> entries;
    try {
        for (const auto& [tensor, shard] : weightMap->items()) {
            if (!shard.is_string()) {
                return Error{file + ": weight_map entry '" + shown(tensor) +
                             "' must name a shard file (a string)"};
            }
            const std::string& shardName = shard.get_ref<const std::string&>();
            if (!isPlainFileName(shardName)) {
                return Error{file + ": weight_map entry '" + shown(tensor) + "' names '" +
                             shown(shardName) +
                             "', outside the checkpoint's folder (shards are plain file names)"};
            }
            entries.emplace_back(tensor, shardName);
        }
    } catch (const std::bad_alloc&) {
        return Error{file + ": out of memory for the index"};
    }
    if (entries.empty()) return Error{file + ": \"weight_map\" is empty"};
    return entries;
}

Result<Checkpoint> openCheckpoint(const std::string& path) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
        auto resolved = resolveFolder(path);
        if (!resolved) return resolved.error();
        return openCheckpoint(*resolved);
    }
    if (isSafetensorsIndexPath(path)) return openIndex(path);
    return openSingle(path);
}

Result<std::vector<SafetensorsTensorInfo>> listCheckpointTensors(const std::string& path) {
    auto checkpoint = openCheckpoint(path);
    if (!checkpoint) return checkpoint.error();
    std::vector<SafetensorsTensorInfo> list;
    list.reserve(checkpoint->tensors.size());
    for (auto& tensor : checkpoint.value().tensors) list.push_back(std::move(tensor.info));
    return list;
}

Result<Matrix> readCheckpointTensor(const std::string& path, std::string_view tensor) {
    std::error_code error;
    if (!fs::is_directory(path, error) && !isSafetensorsIndexPath(path)) {
        return readTensor(path, tensor);
    }
    auto checkpoint = openCheckpoint(path);
    if (!checkpoint) return checkpoint.error();
    const CheckpointTensor* found = checkpoint->find(tensor);
    if (found == nullptr) {
        return Error{checkpoint->source + ": no tensor named '" + shown(tensor) + "'"};
    }
    return readTensor(checkpoint->shards[std::size_t(found->shard)].path, tensor);
}

std::string specialTokenRowsNote(std::uint64_t rows) {
    auto square = [](std::uint64_t n) -> std::uint64_t {
        std::uint64_t side = std::uint64_t(std::sqrt(double(n)) + 0.5);
        return side * side == n ? side : 0;
    };
    const std::string last = std::to_string(rows - 1);
    for (std::uint64_t prefix : {1, 2, 0}) {  // timm's num_prefix_tokens: class (+ distillation)
        if (rows <= prefix) continue;
        const std::uint64_t side = square(rows - prefix);
        if (side < 2) continue;
        const std::string grid = std::to_string(side) + " x " + std::to_string(side) + " patches";
        if (prefix == 0)
            return "no special-token rows: all " + std::to_string(rows) + " are the " + grid;
        if (prefix == 1) return "row 0 is the class token; rows 1.." + last + " are the " + grid;
        return "rows 0-1 are the class and distillation tokens (DeiT); rows 2.." + last +
               " are the " + grid;
    }
    return "";
}

Result<PositionTableFile> loadCheckpointPositionTable(const std::string& path,
                                                      std::string_view tensor) {
    std::string file = path;
    std::string name(tensor);
    SafetensorsTensorInfo info;
    auto checkpoint = openCheckpoint(path);
    if (!checkpoint) return checkpoint.error();
    if (name.empty()) {
        for (const CheckpointTensor& t : checkpoint->tensors) {
            if (isPositionTableName(t.info.name)) {
                name = t.info.name;
                break;
            }
        }
        if (name.empty()) {
            SafetensorsHeader names;
            for (const CheckpointTensor& t : checkpoint->tensors) names.tensors.push_back(t.info);
            auto found = findPositionTable(names, checkpoint->source);
            if (!found) return found.error();  // the one-line listing of what is there
            name = *found;
        }
    }
    const CheckpointTensor* found = checkpoint->find(name);
    if (found == nullptr) {
        return Error{checkpoint->source + ": no tensor named '" + shown(name) + "'"};
    }
    info = found->info;
    file = checkpoint->shards[std::size_t(found->shard)].path;
    auto loaded = loadPositionTable(file, name);
    if (!loaded) return loaded.error();
    if (info.shape.size() == 3) {
        const std::string special = specialTokenRowsNote(info.shape[1]);
        loaded->offset.note += "; " + shapeText(info.shape) + " read as " +
                               std::to_string(info.shape[1]) + " rows" +
                               (special.empty() ? std::string() : ": " + special);
    }
    return loaded;
}

std::string checkpointShardOf(const Checkpoint& checkpoint, std::string_view tensor) {
    const CheckpointTensor* found = checkpoint.find(tensor);
    return found ? checkpoint.shards[std::size_t(found->shard)].path : std::string();
}

}  // namespace poslab
