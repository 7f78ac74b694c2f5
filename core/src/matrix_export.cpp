#include "poslab/matrix_export.hpp"

#include "poslab/csv.hpp"
#include "poslab/npy.hpp"
#include "poslab/output_file.hpp"

namespace poslab {

Status checkMatrixExtension(const std::string& path) {
    const std::string extension = fileExtension(path);
    if (extension == ".csv" || extension == ".npy") return success();
    return Error{"--out must end in .csv or .npy (got '" + path + "')"};
}

Status saveMatrix(const Matrix& matrix, const std::string& path) {
    if (auto status = checkMatrixExtension(path); !status) return status;
    return fileExtension(path) == ".npy" ? saveNpy(matrix, path) : saveCsv(matrix, path);
}

}  // namespace poslab
