#include "poslab/io/csv.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "poslab/base/format.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab {

Status writeCsv(const Matrix& matrix, std::FILE* file) {
    std::vector<char> line;
    line.reserve(matrix.cols * 26 + 2);
    for (std::size_t r = 0; r < matrix.rows; ++r) {
        line.clear();
        const double* row = matrix.row(r);
        for (std::size_t c = 0; c < matrix.cols; ++c) {
            if (c != 0) line.push_back(',');
            const double v = row[c];
            if (std::isnan(v)) {
                line.insert(line.end(), {'n', 'a', 'n'});
            } else if (std::isinf(v)) {
                if (v < 0) line.push_back('-');
                line.insert(line.end(), {'i', 'n', 'f'});
            } else {
                char buffer[32];
                auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, v);
                (void)error;
                line.insert(line.end(), buffer, end);
            }
        }
        line.push_back('\n');
        if (std::fwrite(line.data(), 1, line.size(), file) != line.size()) {
            return Error{"write failed"};
        }
    }
    return success();
}

Status saveCsv(const Matrix& matrix, const std::string& path) {
    return writeFileAtomically(path, [&](std::FILE* file) { return writeCsv(matrix, file); });
}

Result<Matrix> parseCsv(std::string_view text) {
    Matrix matrix;
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
        ++lineNumber;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        std::size_t columns = 0;
        while (true) {
            const auto comma = line.find(',');
            std::string_view field = line.substr(0, comma);
            double value = 0;
            if (field == "nan") {
                value = NAN;
            } else if (field == "inf") {
                value = INFINITY;
            } else if (field == "-inf") {
                value = -INFINITY;
            } else {
                auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
                if (error != std::errc() || end != field.data() + field.size()) {
                    return Error{"CSV line " + std::to_string(lineNumber) + ": " +
                                 quoteForMessage(field) + " is not a number"};
                }
            }
            matrix.values.push_back(value);
            ++columns;
            if (comma == std::string_view::npos) break;
            line = line.substr(comma + 1);
        }
        if (matrix.rows == 0) matrix.cols = columns;
        if (columns != matrix.cols) {
            return Error{"CSV line " + std::to_string(lineNumber) + " has " +
                         std::to_string(columns) + " values, expected " +
                         std::to_string(matrix.cols)};
        }
        ++matrix.rows;
    }
    return matrix;
}

}  // namespace poslab
