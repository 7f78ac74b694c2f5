#include "poslab/io/matrix_export.hpp"

#include <algorithm>

#include "poslab/base/format.hpp"
#include "poslab/io/csv.hpp"
#include "poslab/io/npy.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab {

Status checkMatrixExtension(const std::string& path) {
    const std::string extension = fileExtension(path);
    if (extension == ".csv" || extension == ".npy") return success();
    return Error{"--out must end in .csv or .npy (got " +
                 quoteForMessage(path, kMessagePathLength) + ")"};
}

Status saveMatrix(const Matrix& matrix, const std::string& path) {
    if (auto status = checkMatrixExtension(path); !status) return status;
    return fileExtension(path) == ".npy" ? saveNpy(matrix, path) : saveCsv(matrix, path);
}

Status saveMatrixStreaming(const std::string& path, std::size_t rows, std::size_t cols,
                           const RowProducer& produce) {
    if (auto status = checkMatrixExtension(path); !status) return status;
    const bool npy = fileExtension(path) == ".npy";
    // About 256 KiB a chunk: small enough to stay in cache between computing and writing.
    // CSV chunks are larger: their rows are formatted in parallel (writeCsv).
    const std::size_t chunkValues = std::size_t(1) << (npy ? 15 : 17);
    const std::size_t chunkRows =
        std::max<std::size_t>(1, chunkValues / std::max<std::size_t>(cols, 1));
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        if (npy) {
            const std::string header = npyHeader(rows, cols);
            if (std::fwrite(header.data(), 1, header.size(), file) != header.size()) {
                return Error{"write failed"};
            }
        }
        Matrix chunk;
        for (std::size_t first = 0; first < rows; first += chunkRows) {
            const std::size_t count = std::min(chunkRows, rows - first);
            if (auto status = produce(first, count, chunk); !status) return status;
            if (chunk.rows != count || chunk.cols != cols) return Error{"internal error: chunk of the wrong shape"};
            if (npy) {
                if (std::fwrite(chunk.values.data(), sizeof(double), chunk.values.size(), file) != chunk.values.size()) {
                    return Error{"write failed"};
                }
            } else if (auto status = writeCsv(chunk, file); !status) {
                return status;
            }
        }
        return success();
    });
}

}  // namespace poslab
