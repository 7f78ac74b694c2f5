// fake_checkpoint.hpp — small Hugging Face checkpoints written by the tests: a safetensors writer
// (the format as huggingface/safetensors' README describes it), config.json, and optionally a
// model.safetensors.index.json with the layers spread over shards. The query and key rows carry
// planted per-pair norms, so a reader's measure can be checked against the numbers put in.
// Shared by the core tests and the command-line tests (header-only, no gtest).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace poslab::fake {

// ---- Encoding
inline std::uint16_t toBf16(double value) {  // round to nearest even, as torch's .bfloat16()
    const float f = float(value);
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    bits += 0x7FFF + ((bits >> 16) & 1);
    return std::uint16_t(bits >> 16);
}
inline double fromBf16(std::uint16_t bits) {
    const std::uint32_t wide = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
}
inline double roundedTo(const std::string& dtype, double value) {
    return dtype == "BF16" ? fromBf16(toBf16(value)) : double(float(value));
}

struct Tensor {
    std::string name, dtype;  // "BF16" or "F32"
    std::vector<std::uint64_t> shape;
    std::vector<double> values;  // row-major
};

inline std::string encode(const Tensor& t) {
    std::string out;
    for (double v : t.values) {
        if (t.dtype == "BF16") {
            const std::uint16_t b = toBf16(v);
            out.append(reinterpret_cast<const char*>(&b), 2);
        } else {
            const float f = float(v);
            out.append(reinterpret_cast<const char*>(&f), 4);
        }
    }
    return out;
}

inline std::string safetensorsBytes(const std::vector<Tensor>& tensors) {
    std::string header = "{\"__metadata__\":{\"format\":\"pt\"}", data;
    for (const Tensor& t : tensors) {
        std::string shape = "[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) {
            shape += (i ? "," : "") + std::to_string(t.shape[i]);
        }
        shape += "]";
        const std::string bytes = encode(t);
        header += ",\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":" + shape +
                  ",\"data_offsets\":[" + std::to_string(data.size()) + "," +
                  std::to_string(data.size() + bytes.size()) + "]}";
        data += bytes;
    }
    header += "}";
    while ((8 + header.size()) % 8 != 0) header += ' ';
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((header.size() >> (8 * i)) & 0xFF);
    return out + header + data;
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// ---- A model with planted norms
enum class Packing { Separate, QkvBlocks, NeoxPerHead, FalconMultiQuery, FalconGrouped };

struct Model {
    std::string modelType = "llama";
    int layers = 2, heads = 4, kvHeads = 2, headDim = 16, hidden = 24;
    int rotatedDims = 16;          // partial rotary when < headDim (config says the fraction)
    bool interleavedRows = false;  // rows stored (2i, 2i+1) instead of (i, i + d/2)
    std::string dtype = "BF16";
    Packing packing = Packing::Separate;
    int shards = 1;           // > 1: model.safetensors.index.json + shards
    std::string extraConfig;  // appended inside config.json's object: ",\"k\": v"
};

// The planted Frobenius norms of a pair's two query rows and two key rows.
inline double plantedQuery(int layer, int head, int pair) {
    return 0.5 + 0.25 * layer + 0.125 * head + 0.0625 * pair + 0.01 * ((pair * 7 + head) % 5);
}
inline double plantedKey(int layer, int kvHead, int pair) {
    return 2.0 - 0.03125 * pair + 0.5 * kvHead + 0.2 * layer + 0.02 * ((pair * 3) % 4);
}
// The column pattern every rotated row is a multiple of; its squared sum is kPatternSquares.
inline double pattern(int col) {
    return col % 3 == 0 ? -1.0 : 0.5;
}
inline double patternSquares(int cols) {
    double sum = 0;
    for (int c = 0; c < cols; ++c) sum += pattern(c) * pattern(c);
    return sum;
}
// The two row multipliers of a pair before rounding: their squares sum to norm^2 / pattern.
inline void splitNorm(double norm, int pair, int cols, double& a, double& b) {
    const double phi = 0.3 + 0.1 * pair;
    a = norm * std::cos(phi) / std::sqrt(patternSquares(cols));
    b = norm * std::sin(phi) / std::sqrt(patternSquares(cols));
}
// What the stored (rounded) weights' pair norm is: the exact value a reader must find.
inline double storedNorm(const Model& m, double planted, int pair) {
    double a, b;
    splitNorm(planted, pair, m.hidden, a, b);
    a = roundedTo(m.dtype, a);
    b = roundedTo(m.dtype, b);
    return std::sqrt((a * a + b * b) * patternSquares(m.hidden));
}

// headDim rows of one head: pair rows carry the planted norm, NoPE rows a filler of 3.
inline std::vector<double> headRows(const Model& m, int layer, int head, bool key) {
    std::vector<double> rows(std::size_t(m.headDim) * std::size_t(m.hidden), 3.0);
    const int pairs = m.rotatedDims / 2;
    for (int i = 0; i < pairs; ++i) {
        double a, b;
        splitNorm(key ? plantedKey(layer, head, i) : plantedQuery(layer, head, i), i, m.hidden, a,
                  b);
        const int r1 = m.interleavedRows ? 2 * i : i;
        const int r2 = m.interleavedRows ? 2 * i + 1 : i + m.rotatedDims / 2;
        for (int c = 0; c < m.hidden; ++c) {
            rows[std::size_t(r1) * std::size_t(m.hidden) + std::size_t(c)] = a * pattern(c);
            rows[std::size_t(r2) * std::size_t(m.hidden) + std::size_t(c)] = b * pattern(c);
        }
    }
    return rows;
}
inline std::vector<double> filler(std::size_t count, double value) {
    return std::vector<double>(count, value);
}
inline void append(std::vector<double>& out, const std::vector<double>& more) {
    out.insert(out.end(), more.begin(), more.end());
}

inline std::vector<Tensor> layerTensors(const Model& m, int layer) {
    const std::uint64_t hd = std::uint64_t(m.headDim), cols = std::uint64_t(m.hidden);
    const std::string prefix =
        m.packing == Packing::NeoxPerHead
            ? "gpt_neox.layers." + std::to_string(layer) + ".attention."
        : m.packing == Packing::FalconMultiQuery || m.packing == Packing::FalconGrouped
            ? "transformer.h." + std::to_string(layer) + ".self_attention."
            : "model.layers." + std::to_string(layer) + ".self_attn.";
    std::vector<double> q, k, v = filler(std::size_t(m.kvHeads) * hd * cols, 7.0);
    for (int h = 0; h < m.heads; ++h) append(q, headRows(m, layer, h, false));
    for (int g = 0; g < m.kvHeads; ++g) append(k, headRows(m, layer, g, true));
    std::vector<Tensor> out;
    const std::uint64_t H = std::uint64_t(m.heads), G = std::uint64_t(m.kvHeads);
    switch (m.packing) {
        case Packing::Separate:
            out.push_back({prefix + "q_proj.weight", m.dtype, {H * hd, cols}, q});
            out.push_back({prefix + "k_proj.weight", m.dtype, {G * hd, cols}, k});
            out.push_back({prefix + "v_proj.weight", m.dtype, {G * hd, cols}, v});
            break;
        case Packing::QkvBlocks: {
            std::vector<double> all = q;
            append(all, k);
            append(all, v);
            out.push_back({prefix + "qkv_proj.weight", m.dtype, {(H + 2 * G) * hd, cols}, all});
            break;
        }
        case Packing::NeoxPerHead: {  // per head [q | k | v]
            std::vector<double> all;
            const std::size_t headSize = std::size_t(hd * cols);
            for (std::size_t h = 0; h < H; ++h) {
                all.insert(all.end(), q.begin() + long(h * headSize),
                           q.begin() + long((h + 1) * headSize));
                all.insert(all.end(), k.begin() + long(h * headSize),
                           k.begin() + long((h + 1) * headSize));
                append(all, filler(headSize, 7.0));
            }
            out.push_back({prefix + "query_key_value.weight", m.dtype, {3 * H * hd, cols}, all});
            break;
        }
        case Packing::FalconMultiQuery: {  // [q heads | k | v]
            std::vector<double> all = q;
            append(all, k);
            append(all, filler(std::size_t(hd * cols), 7.0));
            out.push_back({prefix + "query_key_value.weight", m.dtype, {(H + 2) * hd, cols}, all});
            break;
        }
        case Packing::FalconGrouped: {  // per KV group [q x per | k | v]
            std::vector<double> all;
            const std::size_t headSize = std::size_t(hd * cols), per = std::size_t(H / G);
            for (std::size_t g = 0; g < G; ++g) {
                all.insert(all.end(), q.begin() + long(g * per * headSize),
                           q.begin() + long((g + 1) * per * headSize));
                all.insert(all.end(), k.begin() + long(g * headSize),
                           k.begin() + long((g + 1) * headSize));
                append(all, filler(headSize, 7.0));
            }
            out.push_back(
                {prefix + "query_key_value.weight", m.dtype, {(H + 2 * G) * hd, cols}, all});
            break;
        }
    }
    // Tensors the reader must never need: the output projection and an MLP.
    const std::string block =
        m.packing == Packing::NeoxPerHead ? "gpt_neox.layers."
        : m.packing == Packing::FalconMultiQuery || m.packing == Packing::FalconGrouped
            ? "transformer.h."
            : "model.layers.";
    out.push_back({prefix + "o_proj.weight", m.dtype, {cols, H * hd}, filler(cols * H * hd, 5.0)});
    out.push_back({block + std::to_string(layer) + ".mlp.up_proj.weight",
                   m.dtype,
                   {2 * cols, cols},
                   filler(2 * cols * cols, 9.0)});
    return out;
}

inline std::string configJson(const Model& m) {
    std::string text = "{\"model_type\": \"" + m.modelType +
                       "\", \"hidden_size\": " + std::to_string(m.hidden) +
                       ", \"num_attention_heads\": " + std::to_string(m.heads) +
                       ", \"head_dim\": " + std::to_string(m.headDim) +
                       ", \"num_hidden_layers\": " + std::to_string(m.layers) +
                       ", \"max_position_embeddings\": 2048, \"rope_theta\": 10000";
    if (m.packing == Packing::FalconMultiQuery) {
        text += ", \"multi_query\": true, \"new_decoder_architecture\": false";
    } else if (m.packing == Packing::FalconGrouped) {
        text += ", \"multi_query\": false, \"new_decoder_architecture\": true, \"num_kv_heads\": " +
                std::to_string(m.kvHeads);
    } else {
        text += ", \"num_key_value_heads\": " + std::to_string(m.kvHeads);
    }
    if (m.rotatedDims != m.headDim) {
        text += ", \"partial_rotary_factor\": " + std::to_string(double(m.rotatedDims) / m.headDim);
    }
    return text + m.extraConfig + "}";
}

// Writes config.json and the weights into dir; returns the path to hand the reader (the folder).
inline std::string writeModel(const std::filesystem::path& dir, const Model& m) {
    std::filesystem::create_directories(dir);
    writeText(dir / "config.json", configJson(m));
    std::vector<Tensor> embed = {{"model.embed_tokens.weight",
                                  m.dtype,
                                  {10, std::uint64_t(m.hidden)},
                                  filler(10 * std::size_t(m.hidden), 0.25)}};
    if (m.shards <= 1) {
        std::vector<Tensor> all = embed;
        for (int l = 0; l < m.layers; ++l) {
            for (auto& t : layerTensors(m, l)) all.push_back(std::move(t));
        }
        writeText(dir / "model.safetensors", safetensorsBytes(all));
        return dir.string();
    }
    std::string map;
    for (int s = 0; s < m.shards; ++s) {
        const std::string name = "model-0000" + std::to_string(s + 1) + "-of-0000" +
                                 std::to_string(m.shards) + ".safetensors";
        std::vector<Tensor> part = s == 0 ? embed : std::vector<Tensor>{};
        for (int l = s; l < m.layers; l += m.shards) {
            for (auto& t : layerTensors(m, l)) part.push_back(std::move(t));
        }
        for (const Tensor& t : part) {
            map += std::string(map.empty() ? "" : ", ") + "\"" + t.name + "\": \"" + name + "\"";
        }
        writeText(dir / name, safetensorsBytes(part));
    }
    writeText(dir / "model.safetensors.index.json",
              "{\"metadata\": {\"total_size\": 0}, \"weight_map\": {" + map + "}}");
    return dir.string();
}

}  // namespace poslab::fake
