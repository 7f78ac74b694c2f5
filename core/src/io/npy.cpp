#include "poslab/io/npy.hpp"

#include <bit>
#include <cstdint>

#include "poslab/io/output_file.hpp"

namespace poslab {

std::string npyHeader(std::size_t rows, std::size_t cols) {
    std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) + "), }";
    // numpy pads with spaces and a final newline so that magic(6) + version(2) + length(2) +
    // dict is a multiple of 64 bytes.
    const std::size_t prefix = 10;
    const std::size_t unpadded = prefix + dict.size() + 1;
    const std::size_t padding = (64 - unpadded % 64) % 64;
    dict.append(padding, ' ');
    dict.push_back('\n');
    const std::uint16_t length = std::uint16_t(dict.size());
    std::string header("\x93NUMPY\x01\x00", 8);
    header.push_back(char(length & 0xff));
    header.push_back(char(length >> 8));
    return header + dict;
}

Status writeNpy(const Matrix& matrix, std::FILE* file) {
    static_assert(std::endian::native == std::endian::little, "npy writer assumes little-endian");
    const std::string header = npyHeader(matrix.rows, matrix.cols);
    if (std::fwrite(header.data(), 1, header.size(), file) != header.size()) {
        return Error{"write failed"};
    }
    const std::size_t count = matrix.values.size();
    if (count != 0 && std::fwrite(matrix.values.data(), sizeof(double), count, file) != count) {
        return Error{"write failed"};
    }
    return success();
}

Status saveNpy(const Matrix& matrix, const std::string& path) {
    return writeFileAtomically(path, [&](std::FILE* file) { return writeNpy(matrix, file); });
}

}  // namespace poslab
