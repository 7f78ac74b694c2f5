#include "state/table_file.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/io/npy_reader.hpp"
#include "poslab/io/output_file.hpp"
#include "poslab/io/safetensors.hpp"
#include "poslab/io/safetensors_index.hpp"

namespace poslab::state {

bool isSafetensorsPath(const std::string& path) {
    std::error_code error;
    // A sharded checkpoint: its index, or the folder holding it (io/safetensors_index.hpp).
    return fileExtension(path) == ".safetensors" || isSafetensorsIndexPath(path) ||
           std::filesystem::is_directory(path, error);
}

namespace {

Result<TableFile> loadTableFileUnchecked(const std::string& path, std::string_view tensor) {
    const std::string name = std::filesystem::path(path).filename().string();
    TableFile file;
    if (!isSafetensorsPath(path)) {
        if (!tensor.empty()) {
            return Error{escapeForMessage(path, kMessagePathLength) +
                         ": a .npy file holds one array; a tensor name (got " +
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

}  // namespace

Status checkLoadedTable(const Matrix& table, const std::string& name) {
    if (table.rows > std::size_t(kMaxSeqLen) || table.cols > std::size_t(kMaxDModel)) {
        return Error{name + ": " + std::to_string(table.rows) + " x " + std::to_string(table.cols) +
                     " table: PosLab reads at most " + std::to_string(kMaxSeqLen) +
                     " rows (positions) and " + std::to_string(kMaxDModel) +
                     " columns (dimensions)"};
    }
    for (std::size_t r = 0; r < table.rows; ++r) {
        const double* row = table.row(r);
        for (std::size_t c = 0; c < table.cols; ++c) {
            if (std::isfinite(row[c]) && std::fabs(row[c]) <= kMaxTableMagnitude) continue;
            return Error{name + ": row " + std::to_string(r) + ", column " + std::to_string(c) +
                         " holds " + formatValue(row[c]) +
                         "; table values must be finite and at most 1e100 in magnitude"};
        }
    }
    return success();
}

Result<TableFile> loadTableFile(const std::string& path, std::string_view tensor) {
    auto file = loadTableFileUnchecked(path, tensor);
    if (!file) return file;
    if (auto s = checkLoadedTable(file->table, escapeForMessage(path, kMessagePathLength)); !s)
        return s.error();
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

}  // namespace poslab::state
