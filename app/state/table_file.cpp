#include "state/table_file.hpp"

#include <cctype>
#include <filesystem>

#include "poslab/base/format.hpp"
#include "poslab/io/npy_reader.hpp"
#include "poslab/io/safetensors.hpp"

namespace poslab::ui {

bool isSafetensorsPath(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension == ".safetensors";
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
    auto loaded = loadPositionTable(path, tensor);
    if (!loaded) return loaded.error();
    file.table = std::move(loaded->table);
    file.tensor = std::move(loaded->tensor);
    file.note = std::move(loaded->offset.note);
    file.source = name + ": " + file.tensor;
    return file;
}

Result<std::vector<std::string>> tableTensorNames(const std::string& path) {
    auto tensors = listTensors(path);
    if (!tensors) return tensors.error();
    std::vector<std::string> names;
    for (const SafetensorsTensorInfo& info : *tensors) {
        if (isReadableDtype(info.dtype) && (info.shape.size() == 1 || info.shape.size() == 2))
            names.push_back(info.name);
    }
    return names;
}

}  // namespace poslab::ui
