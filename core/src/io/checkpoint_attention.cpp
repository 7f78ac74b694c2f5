#include "poslab/io/checkpoint_attention.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
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

namespace fs = std::filesystem;
using nlohmann::json;

std::string shown(std::string_view text) {
    std::string result;
    for (char c : text.substr(0, 80)) result.push_back((unsigned char)c < 0x20 ? '?' : c);
    if (text.size() > 80) result += "...";
    return result;
}

Result<std::string> readConfigText(const std::string& path) {
    auto file = InputFile::open(path);
    if (!file) return file.error();
    if (file->size() > (std::uint64_t(16) << 20)) {
        return Error{path + ": over 16 MiB, too large for a config"};
    }
    std::string text(std::size_t(file->size()), '\0');
    if (std::fread(text.data(), 1, text.size(), file->stream()) != text.size()) {
        return Error{path + ": the file ended early"};
    }
    return text;
}

// The object holding the text model's keys: the root, or text_config of a multimodal config.
const json& textSection(const json& root) {
    if (!root.contains("num_attention_heads") && !root.contains("n_head")) {
        const auto text = root.find("text_config");
        if (text != root.end() && text->is_object()) return *text;
    }
    return root;
}

// A positive integer under one of keys (first present wins); nullopt when none is present.
Result<std::optional<int>> positiveInt(const json& section, std::initializer_list<const char*> keys,
                                       const std::string& file, std::string* usedKey = nullptr) {
    for (const char* key : keys) {
        const auto it = section.find(key);
        if (it == section.end() || it->is_null()) continue;
        if (!it->is_number_integer() || it->get<long long>() < 1 ||
            it->get<long long>() > 1'000'000) {
            return Error{file + ": " + key + " must be a positive integer (got " +
                         shown(it->dump()) + ")"};
        }
        if (usedKey) *usedKey = key;
        return std::optional<int>(int(it->get<long long>()));
    }
    return std::optional<int>();
}

bool truthy(const json& section, const char* key) {
    const auto it = section.find(key);
    return it != section.end() && it->is_boolean() && it->get<bool>();
}

// Families whose HF checkpoints store rotary pairs as the modeling code pairs them, checked
// against each model's apply_rotary_pos_emb: rotate_half (Half) unless hf_config says otherwise.
bool isKnownFamily(const std::string& type) {
    static const char* const known[] = {
        "llama",     "mistral",    "mixtral",     "qwen2",    "qwen2_moe",   "qwen3",
        "qwen3_moe", "gemma",      "gemma2",      "gemma3",   "gemma3_text", "olmo",
        "olmo2",     "olmoe",      "phi",         "phi3",     "gpt_neox",    "falcon",
        "stablelm",  "starcoder2", "granite",     "nemotron", "persimmon",   "gptj",
        "codegen",   "llama4",     "llama4_text", "smollm3",  "qwen2_vl",    "qwen2_5_vl",
        "exaone",    "internlm2",  "yi",          "baichuan"};
    for (const char* name : known) {
        if (type == name) return true;
    }
    return false;
}

// Splits "model.layers.12.self_attn" + suffix into the pattern "model.layers.{}.self_attn" and 12.
bool layerOf(std::string_view name, std::string_view suffix, std::string& pattern, int& layer) {
    if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) {
        return false;
    }
    const std::string_view stem = name.substr(0, name.size() - suffix.size());
    // The last dot-separated component made only of digits.
    std::size_t end = stem.size();
    while (end > 0) {
        std::size_t begin = stem.rfind('.', end - 1);
        begin = begin == std::string_view::npos ? 0 : begin + 1;
        const std::string_view part = stem.substr(begin, end - begin);
        if (!part.empty() && part.size() <= 6 &&
            std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            pattern = std::string(stem.substr(0, begin)) + "{}" + std::string(stem.substr(end));
            layer = std::stoi(std::string(part));
            return true;
        }
        if (begin == 0) break;
        end = begin - 1;
    }
    return false;
}

bool looksNonText(std::string_view pattern) {
    for (std::string_view word : {"vision", "visual", "audio", "image", "encoder.", "mm_"}) {
        if (pattern.find(word) != std::string_view::npos) return true;
    }
    return false;
}

struct LayerGroup {
    std::map<int, std::string> layers;  // layer -> tensor name
};

// The query tensors of each layer for one suffix, grouped by name pattern; one group chosen.
Result<std::map<int, std::string>> chooseGroup(const std::map<std::string, LayerGroup>& groups,
                                               int expectedLayers, const std::string& source,
                                               std::string_view suffix) {
    std::vector<const std::pair<const std::string, LayerGroup>*> candidates;
    for (const auto& entry : groups) candidates.push_back(&entry);
    auto keep = [&](auto predicate) {
        std::vector<const std::pair<const std::string, LayerGroup>*> kept;
        for (auto* c : candidates) {
            if (predicate(*c)) kept.push_back(c);
        }
        if (!kept.empty()) candidates = kept;
    };
    if (candidates.size() > 1 && expectedLayers > 0) {
        keep([&](const auto& c) { return int(c.second.layers.size()) == expectedLayers; });
    }
    if (candidates.size() > 1) keep([](const auto& c) { return !looksNonText(c.first); });
    if (candidates.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < candidates.size() && i < 3; ++i) {
            list += (i ? ", " : "") + shown(candidates[i]->first + std::string(suffix));
        }
        return Error{source + ": " + std::to_string(candidates.size()) +
                     " stacks of attention layers (" + list +
                     "); PosLab reads one text model's layers"};
    }
    return candidates.front()->second.layers;
}

}  // namespace

const char* qkvPackingName(QkvPacking packing) {
    switch (packing) {
        case QkvPacking::Separate:
            return "q_proj + k_proj";
        case QkvPacking::QkvBlocks:
            return "fused qkv_proj [q | k | v]";
        case QkvPacking::PerHead:
            return "fused query_key_value, per head [q | k | v]";
        case QkvPacking::MultiQuery:
            return "fused query_key_value, multi-query [q... | k | v]";
        case QkvPacking::Grouped:
            return "fused query_key_value, per KV group [q... | k | v]";
    }
    return "?";
}

Result<CheckpointAttention> describeCheckpointAttention(const std::string& path,
                                                        const AttentionOverrides& overrides) {
    auto checkpoint = openCheckpoint(path);
    if (!checkpoint) return checkpoint.error();
    CheckpointAttention result;
    result.checkpoint = std::move(checkpoint).value();
    const std::string& source = result.checkpoint.source;
    result.configPath = (fs::path(result.checkpoint.directory) / "config.json").string();
    std::error_code error;
    if (!fs::is_regular_file(result.configPath, error)) {
        return Error{source +
                     ": no config.json beside it (needed for the heads, KV heads and "
                     "head size)"};
    }
    auto text = readConfigText(result.configPath);
    if (!text) return text.error();
    const std::string& configName = result.configPath;

    json root;
    try {
        root = json::parse(*text);
    } catch (const std::exception&) {
        return Error{configName + ": not valid JSON"};
    }
    if (!root.is_object()) return Error{configName + ": not a JSON object"};
    const json& model = textSection(root);

    // Multi-head latent attention keeps q and k in low-rank factors with a separate RoPE part.
    for (const char* key : {"kv_lora_rank", "q_lora_rank"}) {
        if (model.contains(key) && !model[key].is_null()) {
            return Error{configName + ": " + key +
                         " is set: multi-head latent attention (DeepSeek-V2/V3) stores its "
                         "decoupled RoPE keys in kv_a_proj_with_mqa, which PosLab does not read"};
        }
    }
    if (truthy(model, "alibi")) {
        return Error{configName + ": alibi is true: this Falcon model has no rotary embedding"};
    }

    auto config = parseHfConfig(*text);
    if (!config) return Error{configName + ": " + config.error().message};
    result.config = std::move(config).value();
    result.headDim = result.config.rope.headDim;
    result.layers = int(result.config.layers.size());

    std::string headsKey, kvKey;
    auto heads =
        positiveInt(model, {"num_attention_heads", "n_head", "num_heads"}, configName, &headsKey);
    if (!heads) return heads.error();
    if (!*heads) return Error{configName + ": num_attention_heads is absent"};
    result.heads = **heads;
    auto kv = positiveInt(model, {"num_key_value_heads", "num_kv_heads", "n_head_kv"}, configName,
                          &kvKey);
    if (!kv) return kv.error();
    auto hidden = positiveInt(model, {"hidden_size", "n_embd", "d_model"}, configName);
    if (!hidden) return hidden.error();
    result.hidden = hidden->value_or(0);

    const std::string& type = result.config.modelType;
    const bool falcon = type == "falcon" || type == "RefinedWeb" || type == "RefinedWebModel";
    bool newArchitecture = false, multiQuery = false;
    if (falcon) {
        newArchitecture = truthy(model, "new_decoder_architecture");
        multiQuery = !model.contains("multi_query") || truthy(model, "multi_query");  // default
        if (!newArchitecture && multiQuery) {
            result.kvHeads = 1;
            result.notes.push_back("Falcon multi_query: one key head shared by all queries");
        } else {
            result.kvHeads = kv->value_or(result.heads);
        }
    } else {
        result.kvHeads = kv->value_or(result.heads);
        if (!*kv) result.notes.push_back("num_key_value_heads absent: one key head per query");
    }
    if (result.heads % result.kvHeads != 0) {
        return Error{configName + ": " + std::to_string(result.heads) + " query heads are not a " +
                     "multiple of " + std::to_string(result.kvHeads) + " key heads (" + kvKey +
                     ")"};
    }

    // ---- Pairing
    if (overrides.pairing) {
        result.config.rope.pairing = *overrides.pairing;
        result.pairingSource = std::string("pairing ") +
                               std::string(pairingName(*overrides.pairing)) +
                               " as asked (--pairing)";
    } else if (result.config.rope.pairing == RopePairing::Interleaved) {
        result.pairingSource = (type.empty() ? std::string("the config") : type) +
                               " rotates rows (2i, 2i + 1): interleaved pairing";
    } else if (isKnownFamily(type)) {
        result.pairingSource = type +
                               " checkpoints are stored for rotate_half: pair i is rows i and "
                               "i + d/2 of each head";
    } else {
        return Error{configName + ": " +
                     (type.empty() ? std::string("model_type is absent")
                                   : "model_type '" + shown(type) + "' is not one PosLab knows") +
                     ", so whether rows pair as (i, i + d/2) or (2i, 2i + 1) is unknown; name it "
                     "with --pairing half|interleaved"};
    }

    // ---- Tensors
    struct Candidate {
        std::string_view suffix;
        QkvPacking packing;
    };
    std::map<std::string, LayerGroup> queryGroups, fusedGroups, perHeadGroups;
    bool sawMla = false;
    for (const CheckpointTensor& tensor : result.checkpoint.tensors) {
        std::string pattern;
        int layer = 0;
        const std::string& name = tensor.info.name;
        if (name.find("kv_a_proj_with_mqa") != std::string::npos) sawMla = true;
        if (layerOf(name, ".q_proj.weight", pattern, layer)) {
            queryGroups[pattern].layers[layer] = name;
        } else if (layerOf(name, ".qkv_proj.weight", pattern, layer)) {
            fusedGroups[pattern].layers[layer] = name;
        } else if (layerOf(name, ".query_key_value.weight", pattern, layer)) {
            perHeadGroups[pattern].layers[layer] = name;
        }
    }
    if (sawMla) {
        return Error{source +
                     ": kv_a_proj_with_mqa tensors: multi-head latent attention "
                     "(DeepSeek-V2/V3) is not read"};
    }
    std::map<int, std::string> chosen;
    if (!queryGroups.empty()) {
        result.packing = QkvPacking::Separate;
        auto group = chooseGroup(queryGroups, result.layers, source, ".q_proj.weight");
        if (!group) return group.error();
        chosen = std::move(group).value();
    } else if (!fusedGroups.empty()) {
        result.packing = QkvPacking::QkvBlocks;
        auto group = chooseGroup(fusedGroups, result.layers, source, ".qkv_proj.weight");
        if (!group) return group.error();
        chosen = std::move(group).value();
    } else if (!perHeadGroups.empty()) {
        if (falcon) {
            result.packing = newArchitecture ? QkvPacking::Grouped
                             : multiQuery    ? QkvPacking::MultiQuery
                                             : QkvPacking::PerHead;
        } else if (type == "gpt_neox" || type == "persimmon" || type == "gpt_neox_japanese") {
            result.packing = QkvPacking::PerHead;
        } else {
            return Error{source + ": fused query_key_value tensors, but model_type '" +
                         shown(type) +
                         "' does not say how q, k and v are packed (PosLab knows gpt_neox, "
                         "persimmon and falcon)"};
        }
        auto group = chooseGroup(perHeadGroups, result.layers, source, ".query_key_value.weight");
        if (!group) return group.error();
        chosen = std::move(group).value();
    } else {
        return Error{source +
                     ": no attention projections found (looked for *.q_proj.weight, "
                     "*.qkv_proj.weight and *.query_key_value.weight among " +
                     std::to_string(result.checkpoint.tensors.size()) + " tensors)"};
    }
    const int found = int(chosen.size());
    if (result.layers == 0) {
        result.layers = found;
        result.notes.push_back("num_hidden_layers absent: " + std::to_string(found) +
                               " layers found by name");
    }
    if (found != result.layers || chosen.begin()->first != 0 ||
        chosen.rbegin()->first != found - 1) {
        int missing = 0;
        while (missing < result.layers && chosen.count(missing)) ++missing;
        return Error{source + ": config.json gives " + std::to_string(result.layers) +
                     " layers (num_hidden_layers), but the query projection of layer " +
                     std::to_string(missing) + " is missing (" + std::to_string(found) + " found)"};
    }

    // ---- Shapes against the config
    const std::uint64_t hd = std::uint64_t(result.headDim);
    const std::uint64_t qRows = std::uint64_t(result.heads) * hd;
    const std::uint64_t kRows = std::uint64_t(result.kvHeads) * hd;
    std::uint64_t columns = 0;
    auto checkTensor = [&](const std::string& name, std::uint64_t rows,
                           const std::string& what) -> Status {
        const CheckpointTensor* tensor = result.checkpoint.find(name);
        if (tensor == nullptr) return Error{source + ": no tensor named '" + shown(name) + "'"};
        const auto& info = tensor->info;
        if (!isReadableDtype(info.dtype)) {
            return Error{source + ": '" + shown(name) + "' is " +
                         std::string(dtypeName(info.dtype)) +
                         "; PosLab reads BF16, F16, F32 and F64 weights (quantised checkpoints "
                         "are not read)"};
        }
        if (info.shape.size() != 2 || info.shape[0] != rows || info.shape[1] == 0 ||
            (columns != 0 && info.shape[1] != columns)) {
            return Error{source + ": '" + shown(name) + "' has shape " + shapeText(info.shape) +
                         ", but config.json gives " + what + " = " + std::to_string(rows) +
                         " rows" + (columns ? " of " + std::to_string(columns) + " columns" : "")};
        }
        columns = info.shape[1];
        result.qkBytes += (info.end - info.begin);
        return success();
    };
    const std::string headText = std::to_string(result.heads) + " heads x " + std::to_string(hd);
    const std::string kvText = std::to_string(result.kvHeads) + " KV heads x " + std::to_string(hd);
    for (int layer = 0; layer < result.layers; ++layer) {
        QkLayerTensors names;
        names.query = chosen[layer];
        if (result.packing == QkvPacking::Separate) {
            names.key = names.query.substr(0, names.query.size() - 13) + "k_proj.weight";
            if (auto s = checkTensor(names.query, qRows, headText); !s) return s.error();
            if (auto s = checkTensor(names.key, kRows, kvText); !s) return s.error();
        } else {
            names.key = names.query;
            std::uint64_t rows = 0;
            std::string what;
            switch (result.packing) {
                case QkvPacking::QkvBlocks:
                case QkvPacking::MultiQuery:
                case QkvPacking::Grouped:
                    rows = qRows + 2 * kRows;
                    what = "(" + std::to_string(result.heads) + " + 2 x " +
                           std::to_string(result.kvHeads) + ") heads x " + std::to_string(hd);
                    break;
                default:
                    rows = 3 * qRows;
                    what = "3 x " + headText;
                    if (result.kvHeads != result.heads) {
                        return Error{configName + ": " + kvText +
                                     " do not fit per-head [q | k | v] packing of " + headText};
                    }
            }
            if (auto s = checkTensor(names.query, rows, what); !s) return s.error();
        }
        result.tensors.push_back(std::move(names));
    }
    if (result.hidden != 0 && columns != std::uint64_t(result.hidden)) {
        result.notes.push_back("projections have " + std::to_string(columns) +
                               " input columns; hidden_size is " + std::to_string(result.hidden));
    }
    result.hidden = int(columns);
    // Bytes actually read: the q and k rows (fused tensors hold v rows as well).
    if (result.packing != QkvPacking::Separate) {
        result.qkBytes = 0;
        for (const auto& names : result.tensors) {
            const auto& info = result.checkpoint.find(names.query)->info;
            result.qkBytes += (qRows + kRows) * columns * std::uint64_t(dtypeBits(info.dtype) / 8);
        }
    }
    result.notes.push_back(std::to_string(result.layers) + " layers, " + headText + ", " +
                           std::to_string(result.kvHeads) + " KV heads, " +
                           qkvPackingName(result.packing));
    return result;
}

}  // namespace poslab
