// table_file.hpp — a position table read from a file, the reader chosen by the extension:
// .safetensors through io/safetensors.hpp (a named tensor, or the one findPositionTable picks,
// with OPT/RoBERTa offset rows dropped as config.json beside the file says), anything else as a
// .npy array (io/npy_reader.hpp). Shared by `--from`/`--table` on the command line and the
// Learned view's Load button, so both read a file the same way. GL-free.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab::state {

struct TableFile {
    Matrix table;        // rows = positions from 0, columns = dimensions
    std::string tensor;  // .safetensors: the tensor read; "" for .npy
    std::string note;    // .safetensors: one line on the rows dropped (or why none); "" for .npy
    std::string source;  // for titles: "model.safetensors: wpe.weight", "wpe.npy"
};

bool isSafetensorsPath(const std::string& path);  // by extension, any case
// A table read from a file holds what the views can take: at most kMaxSeqLen rows and kMaxDModel
// columns (as the options allow), finite values of magnitude <= kMaxTableMagnitude (squares and
// sums of 2^25 of them stay finite, so no figure or export turns finite input into inf or NaN).
// Errors: "NAME: ..." naming the row and column.
inline constexpr double kMaxTableMagnitude = 1e100;
Status checkLoadedTable(const Matrix& table, const std::string& name);
// tensor: .safetensors only ("" = the position table findPositionTable names); a tensor name
// for a .npy file is an Error. Errors are one line naming the file.
Result<TableFile> loadTableFile(const std::string& path, std::string_view tensor = "");
// The tensors of a .safetensors file that can be read as a table (float dtype, 1-D or 2-D), in
// header order: what a tensor chooser offers.
Result<std::vector<std::string>> tableTensorNames(const std::string& path);

}  // namespace poslab::state
