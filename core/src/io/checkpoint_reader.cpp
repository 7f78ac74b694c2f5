#include "poslab/io/checkpoint_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "poslab/base/parallel.hpp"
#include "poslab/io/input_file.hpp"

namespace poslab {

namespace {

void sumSquaresOfRows(SafetensorsDtype dtype, const char* data, std::size_t rows, std::size_t cols,
                      double* out) {
    const std::size_t rowBytes = cols * std::size_t(dtypeBits(dtype) / 8);
    for (std::size_t r = 0; r < rows; ++r) out[r] = sumOfSquares(dtype, data + r * rowBytes, cols);
}

const std::array<float, 65536>& halfTable() {
    static const auto table = [] {
        auto values = std::make_unique<std::array<float, 65536>>();
        for (std::size_t bits = 0; bits < 65536; ++bits) {
            (*values)[bits] = float(halfToDouble(std::uint16_t(bits)));
        }
        return values;
    }();
    return *table;
}

// A contiguous range of rows to read and where their squares go.
struct RowRun {
    int shard = 0;
    std::uint64_t offset = 0;  // file offset of the first row
    std::size_t rows = 0;
    std::size_t cols = 0;
    SafetensorsDtype dtype = SafetensorsDtype::F32;
    double* out = nullptr;  // rows entries
};

bool preadAll(int fd, char* out, std::size_t count, std::uint64_t offset) {
    while (count > 0) {
        const ssize_t got = ::pread(fd, out, count, off_t(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        out += got;
        count -= std::size_t(got);
        offset += std::uint64_t(got);
    }
    return true;
}

}  // namespace

double sumOfSquares(SafetensorsDtype dtype, const char* data, std::size_t count) {
    // 16 independent float lanes: the compiler vectorises them (a single running sum would be a
    // serial chain); each lane adds count / 16 terms, so float keeps ~1e-6 relative accuracy
    // for rows of thousands, far below BF16's 4e-3 step.
    constexpr std::size_t kLanes = 16;
    float lanes[kLanes] = {};
    const std::size_t whole = count - count % kLanes;
    double tail = 0;
    switch (dtype) {
        case SafetensorsDtype::BF16: {
            for (std::size_t i = 0; i < whole; i += kLanes) {
                std::uint16_t bits[kLanes];
                std::memcpy(bits, data + 2 * i, sizeof bits);
                for (std::size_t k = 0; k < kLanes; ++k) {
                    const float x = std::bit_cast<float>(std::uint32_t(bits[k]) << 16);
                    lanes[k] += x * x;
                }
            }
            for (std::size_t i = whole; i < count; ++i) {
                std::uint16_t bits;
                std::memcpy(&bits, data + 2 * i, 2);
                const double x = bfloat16ToDouble(bits);
                tail += x * x;
            }
            break;
        }
        case SafetensorsDtype::F16: {
            const auto& table = halfTable();
            for (std::size_t i = 0; i < whole; i += kLanes) {
                std::uint16_t bits[kLanes];
                std::memcpy(bits, data + 2 * i, sizeof bits);
                for (std::size_t k = 0; k < kLanes; ++k) {
                    const float x = table[bits[k]];
                    lanes[k] += x * x;
                }
            }
            for (std::size_t i = whole; i < count; ++i) {
                std::uint16_t bits;
                std::memcpy(&bits, data + 2 * i, 2);
                const double x = halfToDouble(bits);
                tail += x * x;
            }
            break;
        }
        case SafetensorsDtype::F32: {
            // F32 weights keep their precision: squares summed in double.
            double wide[kLanes] = {};
            for (std::size_t i = 0; i < whole; i += kLanes) {
                float values[kLanes];
                std::memcpy(values, data + 4 * i, sizeof values);
                for (std::size_t k = 0; k < kLanes; ++k) wide[k] += double(values[k]) * values[k];
            }
            for (std::size_t i = whole; i < count; ++i) {
                float x;
                std::memcpy(&x, data + 4 * i, 4);
                tail += double(x) * x;
            }
            for (double w : wide) tail += w;
            return tail;
        }
        case SafetensorsDtype::F64: {
            for (std::size_t i = 0; i < count; ++i) {
                double x;
                std::memcpy(&x, data + 8 * i, 8);
                tail += x * x;
            }
            return tail;
        }
        default:
            return 0;
    }
    double total = tail;
    for (float lane : lanes) total += double(lane);
    return total;
}

Result<QkRowSquares> readQkRowSquares(const CheckpointAttention& attention,
                                      const ReadProgress& progress) {
    QkRowSquares result;
    result.layers = attention.layers;
    result.heads = attention.heads;
    result.kvHeads = attention.kvHeads;
    result.headDim = attention.headDim;
    const std::size_t hd = std::size_t(attention.headDim);
    const std::size_t heads = std::size_t(attention.heads), kv = std::size_t(attention.kvHeads);
    try {
        result.query.assign(std::size_t(attention.layers) * heads * hd, 0.0);
        result.key.assign(std::size_t(attention.layers) * kv * hd, 0.0);
    } catch (const std::bad_alloc&) {
        return Error{attention.checkpoint.source + ": out of memory for the row norms"};
    }

    // ---- Which rows to read, in file order
    std::vector<RowRun> runs;
    for (int layer = 0; layer < attention.layers; ++layer) {
        const auto& names = attention.tensors[std::size_t(layer)];
        double* q = result.query.data() + std::size_t(layer) * heads * hd;
        double* k = result.key.data() + std::size_t(layer) * kv * hd;
        const CheckpointTensor* qt = attention.checkpoint.find(names.query);
        const CheckpointTensor* kt = attention.checkpoint.find(names.key);
        auto run = [&](const CheckpointTensor* t, std::size_t firstRow, std::size_t rows,
                       double* out) {
            const std::size_t cols = std::size_t(t->info.shape[1]);
            const std::size_t rowBytes = cols * std::size_t(dtypeBits(t->info.dtype) / 8);
            const auto& shard = attention.checkpoint.shards[std::size_t(t->shard)];
            runs.push_back({t->shard, shard.dataStart + t->info.begin + firstRow * rowBytes, rows,
                            cols, t->info.dtype, out});
        };
        switch (attention.packing) {
            case QkvPacking::Separate:
                run(qt, 0, heads * hd, q);
                run(kt, 0, kv * hd, k);
                break;
            case QkvPacking::QkvBlocks:
                run(qt, 0, heads * hd, q);
                run(qt, heads * hd, kv * hd, k);
                break;
            case QkvPacking::PerHead:  // head h: rows [3h, 3h + 1, 3h + 2] x hd = q, k, v
                for (std::size_t h = 0; h < heads; ++h) {
                    run(qt, 3 * h * hd, hd, q + h * hd);
                    run(qt, (3 * h + 1) * hd, hd, k + h * hd);
                }
                break;
            case QkvPacking::MultiQuery:
                run(qt, 0, heads * hd, q);
                run(qt, heads * hd, hd, k);
                break;
            case QkvPacking::Grouped: {  // group g: q heads g*per .. , then k, then v
                const std::size_t per = heads / kv;
                for (std::size_t g = 0; g < kv; ++g) {
                    const std::size_t first = g * (per + 2) * hd;
                    run(qt, first, per * hd, q + g * per * hd);
                    run(qt, first + per * hd, hd, k + g * hd);
                }
                break;
            }
        }
    }
    std::stable_sort(runs.begin(), runs.end(), [](const RowRun& a, const RowRun& b) {
        return a.shard != b.shard ? a.shard < b.shard : a.offset < b.offset;
    });
    std::uint64_t total = 0;
    for (const RowRun& r : runs) total += r.rows * r.cols * std::size_t(dtypeBits(r.dtype) / 8);

    // ---- Read them in blocks of whole rows, the runs split between the cores: on an idle
    // machine one core copies from the page cache while the other sums squares, so the whole
    // read takes about as long as `cat` of the same bytes.
    std::size_t largestRow = 0;
    for (const RowRun& r : runs) {
        largestRow = std::max(largestRow, r.cols * std::size_t(dtypeBits(r.dtype) / 8));
    }
    const std::size_t blockBytes = std::max(kQkReadBlockBytes, largestRow);
    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> stop{false};
    std::mutex failureLock;
    std::optional<Error> failure;
    auto fail = [&](Error error) {
        std::lock_guard<std::mutex> lock(failureLock);
        if (!failure) failure = std::move(error);
        stop = true;
    };
    const std::thread::id caller = std::this_thread::get_id();
    if (progress && !progress(0, total)) return Error{"cancelled"};
    parallelFor((long long)runs.size(), 2, [&](long long firstRun, long long lastRun) {
        std::vector<char> block;
        try {
            block.resize(blockBytes);
        } catch (const std::bad_alloc&) {
            return fail(Error{attention.checkpoint.source + ": out of memory for the read buffer"});
        }
        // The shard is opened as every user file is (InputFile): one replaced by a FIFO or a
        // device since its header was read is refused, not waited on. Rows are read with pread
        // on its descriptor, never through the stream's buffer.
        std::optional<InputFile> file;
        int fd = -1;
        int openShard = -1;
        for (long long k = firstRun; k < lastRun && !stop; ++k) {
            const RowRun& r = runs[std::size_t(k)];
            const auto& shard = attention.checkpoint.shards[std::size_t(r.shard)];
            if (r.shard != openShard) {
                file.reset();
                auto opened = InputFile::open(shard.path);
                if (!opened) return fail(opened.error());
                file.emplace(std::move(opened).value());
                fd = ::fileno(file->stream());
                ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
                openShard = r.shard;
            }
            const std::size_t rowBytes = r.cols * std::size_t(dtypeBits(r.dtype) / 8);
            const std::size_t rowsPerBlock = block.size() / rowBytes;
            for (std::size_t first = 0; first < r.rows && !stop; first += rowsPerBlock) {
                const std::size_t rows = std::min(rowsPerBlock, r.rows - first);
                if (!preadAll(fd, block.data(), rows * rowBytes, r.offset + first * rowBytes)) {
                    return fail(Error{shard.path +
                                      ": the file ended (or could not be read) inside a "
                                      "projection"});
                }
                sumSquaresOfRows(r.dtype, block.data(), rows, r.cols, r.out + first);
                const std::uint64_t now = done += rows * rowBytes;
                // Progress is reported from the calling thread only: callers need no locks.
                if (progress && std::this_thread::get_id() == caller && !progress(now, total)) {
                    return fail(Error{"cancelled"});
                }
            }
        }
    });
    if (failure) return *failure;
    if (progress && !progress(done, total)) return Error{"cancelled"};
    result.bytesRead = done.load();
    for (double v : result.query) {
        if (!std::isfinite(v)) {
            return Error{attention.checkpoint.source +
                         ": a query projection holds infinite or NaN weights"};
        }
    }
    for (double v : result.key) {
        if (!std::isfinite(v)) {
            return Error{attention.checkpoint.source +
                         ": a key projection holds infinite or NaN weights"};
        }
    }
    return result;
}

}  // namespace poslab
