#include "poslab/io/csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "poslab/base/format.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab {

namespace {

// One row as text: shortest round-trip digits (std::to_chars), nan, inf, -inf.
void formatRow(const double* row, std::size_t cols, std::string& line) {
    line.clear();
    for (std::size_t c = 0; c < cols; ++c) {
        if (c != 0) line.push_back(',');
        const double v = row[c];
        if (std::isnan(v)) {
            line += "nan";
        } else if (std::isinf(v)) {
            line += v < 0 ? "-inf" : "inf";
        } else {
            char buffer[32];
            auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, v);
            (void)error;
            line.append(buffer, end);
        }
    }
    line.push_back('\n');
}

}  // namespace

Status writeCsv(const Matrix& matrix, std::FILE* file) {
    // Formatting the digits is nearly all of a CSV export's time: rows are formatted on every
    // core, a batch at a time, and written in order.
    const std::size_t batchRows =
        std::max<std::size_t>(1, (std::size_t(1) << 16) / std::max<std::size_t>(matrix.cols, 1));
    const long long rowsPerWorker =
        (long long)std::max<std::size_t>(1, 4096 / std::max<std::size_t>(matrix.cols, 1));
    std::vector<std::string> lines(std::min(batchRows, matrix.rows));
    for (std::size_t first = 0; first < matrix.rows; first += batchRows) {
        const std::size_t count = std::min(batchRows, matrix.rows - first);
        parallelFor((long long)count, rowsPerWorker, [&](long long begin, long long end) {
            for (long long i = begin; i < end; ++i)
                formatRow(matrix.row(first + std::size_t(i)), matrix.cols, lines[std::size_t(i)]);
        });
        for (std::size_t i = 0; i < count; ++i) {
            if (std::fwrite(lines[i].data(), 1, lines[i].size(), file) != lines[i].size()) {
                return Error{"write failed"};
            }
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
