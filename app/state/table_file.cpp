#include "state/table_file.hpp"

#include <cctype>
#include <filesystem>

#include "poslab/base/format.hpp"
#include "poslab/io/npy_reader.hpp"
#include "poslab/io/safetensors.hpp"
#include "poslab/io/safetensors_index.hpp"

namespace poslab::ui {

bool isSafetensorsPath(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    std::error_code error;
    // A sharded checkpoint: its index, or the folder holding it (io/safetensors_index.hpp).
    return extension == ".safetensors" || isSafetensorsIndexPath(path) ||
           std::filesystem::is_directory(path, error);
}

Result<TableFile> loadTableFile(const std::string& path, std::string_view tensor) {
    const std::string name = std::filesystem::path(path).filename().string();
    TableFile file;
    if (!isSafetensorsPath(path)) {
        if (!tensor.empty()) {
            return Error{path + ": a .npy file holds one array; a tensor name (got " +
                         quoteForMessage(tensor) + ") applies to .safetensors files only"};
        }
        auto table = loadNpy(path);
        if (!table) return table.error();
        file.table = std::move(table).value();
        file.source = name;
        return file;
    }
    auto loaded = loadCheckpointPositionTable(path, tensor);
    if (!loaded) return loaded.error();
    file.table = std::move(loaded->table);
    file.tensor = std::move(loaded->tensor);
    file.note = std::move(loaded->offset.note);
    file.source = name + ": " + file.tensor;
    return file;
}

Result<std::vector<std::string>> tableTensorNames(const std::string& path) {
    auto tensors = listCheckpointTensors(path);
    if (!tensors) return tensors.error();
    std::vector<std::string> names;
    for (const SafetensorsTensorInfo& info : *tensors) {
        const bool batchOfOne = info.shape.size() == 3 && info.shape[0] == 1;  // timm pos_embed
        if (isReadableDtype(info.dtype) &&
            (info.shape.size() == 1 || info.shape.size() == 2 || batchOfOne))
            names.push_back(info.name);
    }
    return names;
}

}  // namespace poslab::ui
