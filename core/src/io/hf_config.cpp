#include "poslab/io/hf_config.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "poslab/base/format.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/io/input_file.hpp"

namespace poslab {

namespace {

using nlohmann::json;

// A JSON value as it appears in an error message, cut short so the message stays one line.
std::string describe(const json& value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "an array";
    // dump() escapes C0 controls, not DEL or the C1 controls (U+009B is a CSI): escape again.
    return escapeForMessage(value.dump(-1, ' ', false, json::error_handler_t::replace), 40);
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; users need the rest.
std::string withoutExceptionTag(const std::string& message) {
    const auto end = message.find("] ");
    std::string text = message.rfind("[json.exception.", 0) == 0 && end != std::string::npos
                           ? message.substr(end + 2)
                           : message;
    for (char& c : text) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return text;
}

// A key of one JSON object, with the prefix ("rope_scaling.") that error messages show.
struct Section {
    const json* object = nullptr;  // null: the section is absent and every key reads as missing
    std::string prefix;

    // The value, or null when the key is absent or JSON null (HF's .get() treats both as None).
    const json* find(const char* key) const {
        if (object == nullptr) return nullptr;
        const auto it = object->find(key);
        if (it == object->end() || it->is_null()) return nullptr;
        return &*it;
    }
    bool has(const char* key) const { return find(key) != nullptr; }
    std::string name(const char* key) const { return prefix + key; }
};

Result<std::optional<double>> readNumber(const Section& section, const char* key) {
    const json* value = section.find(key);
    if (value == nullptr) return std::optional<double>{};
    if (!value->is_number()) {
        return Error{section.name(key) + " must be a number (got " + describe(*value) + ")"};
    }
    return std::optional<double>{value->get<double>()};
}

Result<std::optional<int>> readPositiveInt(const Section& section, const char* key) {
    const json* value = section.find(key);
    if (value == nullptr) return std::optional<int>{};
    // Configs written from Python floats say 4096.0; an integral float is accepted.
    const bool integral =
        value->is_number_integer() ||
        (value->is_number_float() && std::floor(value->get<double>()) == value->get<double>());
    const double number = value->is_number() ? value->get<double>() : 0.0;
    if (!integral || !(number >= 1.0) || number > double(std::numeric_limits<int>::max())) {
        return Error{section.name(key) + " must be a positive integer (got " + describe(*value) +
                     ")"};
    }
    return std::optional<int>{int(number)};
}

Result<std::optional<std::string>> readString(const Section& section, const char* key) {
    const json* value = section.find(key);
    if (value == nullptr) return std::optional<std::string>{};
    if (!value->is_string()) {
        return Error{section.name(key) + " must be a string (got " + describe(*value) + ")"};
    }
    return std::optional<std::string>{value->get<std::string>()};
}

Result<std::optional<bool>> readBool(const Section& section, const char* key) {
    const json* value = section.find(key);
    if (value == nullptr) return std::optional<bool>{};
    if (!value->is_boolean()) {
        return Error{section.name(key) + " must be true or false (got " + describe(*value) + ")"};
    }
    return std::optional<bool>{value->get<bool>()};
}

// The first key of `keys` that is present, and its name (for notes about aliases).
struct Found {
    const char* key = nullptr;
    Section section;
};
std::optional<Found> firstPresent(
    std::initializer_list<std::pair<const Section*, const char*>> candidates) {
    for (const auto& [section, key] : candidates) {
        if (section->has(key)) return Found{key, *section};
    }
    return std::nullopt;
}

std::string text(double value) {
    return formatNumber(value);
}

// Everything parseHfConfig() builds, so the steps below can share it.
struct Parser {
    HfModelConfig config;
    Section model;  // the root, or its text_config
    Section block;  // rope_scaling, or v5's rope_parameters; object null when absent
    bool blockIsRopeParameters = false;

    void note(std::string line) { config.notes.push_back(std::move(line)); }

    Status selectSections(const json& root);
    Status readBase();
    Status readHeadDim();
    Status readRotaryFraction();
    Status readMaxPositions();
    Status readScaling();
    Status readPairing();
    Status readTypeSpecific(RopeScaling type, const std::string& typeName);
};

Status Parser::selectSections(const json& root) {
    const Section rootSection{&root, ""};
    auto modelType = readString(rootSection, "model_type");
    if (!modelType) return modelType.error();
    config.modelType = modelType->value_or("");

    model = rootSection;
    const bool hasHeadSize =
        rootSection.has("head_dim") || rootSection.has("hidden_size") || rootSection.has("n_embd");
    if (!hasHeadSize && rootSection.has("text_config")) {
        const json& textConfig = *rootSection.find("text_config");
        if (!textConfig.is_object()) {
            return Error{"text_config must be an object (got " + describe(textConfig) + ")"};
        }
        model = Section{&textConfig, "text_config."};
        note("the attention settings come from text_config (a multimodal config)");
        if (config.modelType.empty()) {
            auto inner = readString(model, "model_type");
            if (!inner) return inner.error();
            config.modelType = inner->value_or("");
        }
    }

    for (const char* key : {"rope_scaling", "rope_parameters"}) {
        const json* value = model.find(key);
        if (value == nullptr) continue;
        if (!value->is_object()) {
            return Error{model.name(key) + " must be an object or null (got " + describe(*value) +
                         ")"};
        }
        block = Section{value, model.name(key) + "."};
        blockIsRopeParameters = std::string_view(key) == "rope_parameters";
        break;
    }
    if (blockIsRopeParameters && block.has("full_attention")) {
        // transformers v5 keys per-layer settings by layer type (Gemma 3); show the global ones.
        const json& full = *block.find("full_attention");
        if (!full.is_object()) {
            return Error{block.name("full_attention") + " must be an object (got " +
                         describe(full) + ")"};
        }
        block = Section{&full, block.name("full_attention") + "."};
        note("rope_parameters is given per layer type; using full_attention");
    }
    return success();
}

Status Parser::readBase() {
    const auto found =
        firstPresent({{&model, "rope_theta"}, {&block, "rope_theta"}, {&model, "rotary_emb_base"}});
    if (!found) {
        config.rope.base = 10000;
        note("rope_theta not given; using 10000");
        return success();
    }
    auto base = readNumber(found->section, found->key);
    if (!base) return base.error();
    if (auto s = requireInRange(found->section.name(found->key), **base, 1.0, 1e12, false); !s) {
        return s;
    }
    config.rope.base = **base;
    if (std::string_view(found->key) == "rotary_emb_base") {
        note("rope_theta taken from rotary_emb_base (GPT-NeoX naming)");
    }
    return success();
}

Status Parser::readHeadDim() {
    auto headDim = readPositiveInt(model, "head_dim");
    if (!headDim) return headDim.error();
    const auto hiddenKey = firstPresent({{&model, "hidden_size"}, {&model, "n_embd"}});
    const auto headsKey = firstPresent({{&model, "num_attention_heads"}, {&model, "n_head"}});
    std::optional<int> hidden, heads;
    if (hiddenKey) {
        auto value = readPositiveInt(model, hiddenKey->key);
        if (!value) return value.error();
        hidden = *value;
    }
    if (headsKey) {
        auto value = readPositiveInt(model, headsKey->key);
        if (!value) return value.error();
        heads = *value;
    }
    if (*headDim) {
        config.rope.headDim = **headDim;
        if (hidden && heads && **headDim != *hidden / *heads) {
            note("head_dim " + std::to_string(**headDim) + " is given explicitly (" +
                 hiddenKey->key + " / " + headsKey->key + " would give " +
                 std::to_string(*hidden / *heads) + ")");
        }
        return success();
    }
    if (!hidden || !heads) {
        return Error{std::string("head size unknown: ") + model.name("head_dim") +
                     " is absent and so is " +
                     (hidden ? model.name("num_attention_heads") : model.name("hidden_size"))};
    }
    config.rope.headDim = *hidden / *heads;
    std::string line = "head_dim = " + std::string(hiddenKey->key) + " // " + headsKey->key +
                       " = " + std::to_string(*hidden) + " // " + std::to_string(*heads) + " = " +
                       std::to_string(config.rope.headDim);
    if (*hidden % *heads != 0) line += " (HF floors the division)";
    note(line);
    return success();
}

Status Parser::readRotaryFraction() {
    const auto found = firstPresent({{&model, "partial_rotary_factor"},
                                     {&block, "partial_rotary_factor"},
                                     {&model, "rotary_pct"}});
    if (found) {
        auto fraction = readNumber(found->section, found->key);
        if (!fraction) return fraction.error();
        if (auto s = requireInRange(found->section.name(found->key), **fraction, 0.0, 1.0, false);
            !s) {
            return s;
        }
        config.rope.rotaryFraction = **fraction;
        if (std::string_view(found->key) == "rotary_pct") {
            note("partial_rotary_factor taken from rotary_pct (GPT-NeoX naming)");
        }
        return success();
    }
    auto rotaryDim = readPositiveInt(model, "rotary_dim");
    if (!rotaryDim) return rotaryDim.error();
    if (!*rotaryDim) return success();
    const int dims = **rotaryDim;
    if (dims > config.rope.headDim) {
        return Error{model.name("rotary_dim") + " must be 1.." +
                     std::to_string(config.rope.headDim) + " (the head dim) (got " +
                     std::to_string(dims) + ")"};
    }
    // GPT-J counts rotated dims directly; as a fraction it must survive int(head_dim * f).
    double fraction = double(dims) / config.rope.headDim;
    while (int(config.rope.headDim * fraction) < dims) fraction = std::nextafter(fraction, 2.0);
    config.rope.rotaryFraction = fraction;
    note("rotary_dim " + std::to_string(dims) + " of head_dim " +
         std::to_string(config.rope.headDim) + " are rotated (GPT-J naming)");
    return success();
}

Status Parser::readMaxPositions() {
    const auto found = firstPresent({{&model, "max_position_embeddings"}, {&model, "n_positions"}});
    if (!found) return success();
    auto positions = readPositiveInt(model, found->key);
    if (!positions) return positions.error();
    config.maxPositionEmbeddings = **positions;
    if (auto s = requireIntInRange(model.name(found->key), config.maxPositionEmbeddings, 1,
                                   kMaxRopePositions);
        !s) {
        return s;
    }
    return success();
}

Status Parser::readPairing() {
    if (config.modelType == "gptj" || config.modelType == "codegen") {
        config.rope.pairing = RopePairing::Interleaved;
        note(config.modelType + " rotates adjacent pairs (2i, 2i+1): interleaved pairing");
    }
    // DeepSeek-V3's rope_interleave: HF permutes interleaved pairs into halves before rotating.
    auto interleave = readBool(model, "rope_interleave");
    if (!interleave) return interleave.error();
    if (interleave->value_or(false)) {
        config.rope.pairing = RopePairing::Interleaved;
        note("rope_interleave is true: interleaved pairing");
    }
    return success();
}

Status Parser::readScaling() {
    config.rope.trainingLength = config.maxPositionEmbeddings > 0 ? config.maxPositionEmbeddings
                                                                  : RopeParams{}.trainingLength;
    if (config.maxPositionEmbeddings == 0) {
        note("max_position_embeddings not given; training length left at " +
             std::to_string(config.rope.trainingLength));
    }
    if (block.object == nullptr) return success();
    // HF: rope_scaling.get("rope_type", rope_scaling.get("type")).
    const char* typeKey = block.has("rope_type") ? "rope_type" : "type";
    auto typeName = readString(block, typeKey);
    if (!typeName) return typeName.error();
    std::string name;
    if (*typeName) {
        name = **typeName;
    } else if (blockIsRopeParameters) {
        name = "default";  // v5 fills rope_parameters with rope_type "default"
    } else {
        return Error{block.name("rope_type") + " is missing (nor is there a legacy " +
                     block.name("type") + ")"};
    }
    if (std::string_view(typeKey) == "type") note("rope type read from the legacy key 'type'");

    RopeScaling type;
    if (name == "default" || name == "mrope") {
        type = RopeScaling::None;
        // Qwen2-VL's mrope splits the pairs between time, height and width positions; for one
        // text position all three are equal, which is plain RoPE (HF maps it to "default").
        if (name == "mrope") note("mrope is plain RoPE for text positions (HF maps it to default)");
    } else if (name == "linear") {
        type = RopeScaling::Linear;
    } else if (name == "dynamic") {
        type = RopeScaling::DynamicNtk;
    } else if (name == "yarn") {
        type = RopeScaling::Yarn;
    } else if (name == "llama3") {
        type = RopeScaling::Llama3;
    } else {
        return Error{block.name(typeKey) + " " + quoteForMessage(name, 40) +
                     " is not supported (supported: default, linear, dynamic, yarn, llama3)"};
    }
    config.rope.scaling.type = type;
    if (type == RopeScaling::None) return success();
    return readTypeSpecific(type, name);
}

Status Parser::readTypeSpecific(RopeScaling type, const std::string& typeName) {
    RopeScalingParams& scaling = config.rope.scaling;
    auto required = [&](const char* key) {
        return Error{block.name(key) + " is required for rope type " + typeName};
    };

    auto factor = readNumber(block, "factor");
    if (!factor) return factor.error();
    auto original = readPositiveInt(block, "original_max_position_embeddings");
    if (!original) return original.error();
    if (*original) {
        if (auto s = requireIntInRange(block.name("original_max_position_embeddings"), **original,
                                       1, kMaxRopePositions);
            !s) {
            return s;
        }
    }

    if (*factor) {
        scaling.factor = **factor;
    } else if (type == RopeScaling::Yarn && *original && config.maxPositionEmbeddings > 0) {
        // transformers (DeepSeek-V3 note): without a factor, yarn uses the context ratio.
        scaling.factor = double(config.maxPositionEmbeddings) / **original;
        note(
            "factor not given; using max_position_embeddings / original_max_position_embeddings"
            " = " +
            text(scaling.factor));
    } else {
        return required("factor");
    }
    if (auto s = requireInRange(block.name("factor"), scaling.factor, 1.0, 65536.0); !s) return s;

    if (type == RopeScaling::Linear || type == RopeScaling::DynamicNtk) {
        if (config.maxPositionEmbeddings == 0) {
            return Error{model.name("max_position_embeddings") + " is required for rope type " +
                         typeName};
        }
        if (type == RopeScaling::DynamicNtk && *original) {
            note("HF's dynamic NTK divides by max_position_embeddings; " +
                 block.name("original_max_position_embeddings") + " is ignored");
        }
        return success();
    }

    // yarn and llama3: the training length is the context before extension.
    if (*original) {
        config.rope.trainingLength = **original;
    } else if (type == RopeScaling::Llama3) {
        return required("original_max_position_embeddings");
    } else if (config.maxPositionEmbeddings > 0) {
        note("original_max_position_embeddings not given; yarn uses max_position_embeddings");
    } else {
        return required("original_max_position_embeddings");
    }
    if (*original && config.maxPositionEmbeddings > 0) {
        note("training length " + std::to_string(**original) +
             " (original_max_position_embeddings); max_position_embeddings " +
             std::to_string(config.maxPositionEmbeddings) + " is the extended context");
    }

    if (type == RopeScaling::Llama3) {
        for (const char* key : {"low_freq_factor", "high_freq_factor"}) {
            auto value = readNumber(block, key);
            if (!value) return value.error();
            if (!*value) return required(key);
            if (auto s = requireGreaterThan(block.name(key), **value, 0.0); !s) return s;
            (std::string_view(key) == "low_freq_factor" ? scaling.lowFreqFactor
                                                        : scaling.highFreqFactor) = **value;
        }
        if (!(scaling.highFreqFactor > scaling.lowFreqFactor)) {
            return Error{block.name("high_freq_factor") + " must be > low_freq_factor " +
                         text(scaling.lowFreqFactor) + " (got " + text(scaling.highFreqFactor) +
                         ")"};
        }
        return success();
    }

    // yarn. HF: beta_fast = get("beta_fast") or 32, so a 0 also means the default.
    for (const char* key : {"beta_fast", "beta_slow"}) {
        auto value = readNumber(block, key);
        if (!value) return value.error();
        if (!*value || **value == 0.0) continue;
        if (auto s = requireGreaterThan(block.name(key), **value, 0.0); !s) return s;
        (std::string_view(key) == "beta_fast" ? scaling.betaFast : scaling.betaSlow) = **value;
    }
    for (const char* key : {"attention_factor", "mscale", "mscale_all_dim"}) {
        auto value = readNumber(block, key);
        if (!value) return value.error();
        if (!*value) continue;
        const bool isAttention = std::string_view(key) == "attention_factor";
        if (auto s = requireInRange(block.name(key), **value, 0.0, 1000.0, !isAttention); !s) {
            return s;
        }
        if (isAttention) {
            scaling.attentionFactor = **value;
        } else if (std::string_view(key) == "mscale") {
            scaling.mscale = **value;
        } else {
            scaling.mscaleAllDim = **value;
        }
    }
    auto truncate = readBool(block, "truncate");
    if (!truncate) return truncate.error();
    scaling.truncate = truncate->value_or(true);
    return success();
}

}  // namespace

Result<HfModelConfig> parseHfConfig(std::string_view jsonText) {
    try {
        json root;
        try {
            root = json::parse(jsonText.begin(), jsonText.end());
        } catch (const json::parse_error& e) {
            return Error{"config.json is not valid JSON: " + withoutExceptionTag(e.what())};
        }
        if (!root.is_object()) {
            return Error{"config.json must be a JSON object (got " + describe(root) + ")"};
        }
        Parser parser;
        if (auto s = parser.selectSections(root); !s) return s.error();
        // In this order: the rotary fraction needs the head dim, the scaling the max positions.
        for (auto step : {&Parser::readHeadDim, &Parser::readBase, &Parser::readRotaryFraction,
                          &Parser::readMaxPositions, &Parser::readScaling, &Parser::readPairing}) {
            if (auto s = (parser.*step)(); !s) return s.error();
        }
        if (auto s = validate(parser.config.rope); !s) {
            return Error{"config.json gives an invalid RoPE setup: " + s.error().message};
        }
        return parser.config;
    } catch (const std::exception& e) {
        // Every access above checks types first; this keeps the no-throw promise regardless.
        return Error{"cannot read config.json: " + withoutExceptionTag(e.what())};
    }
}

Result<HfModelConfig> loadHfConfig(const std::string& path) {
    auto input = InputFile::open(path);  // regular files only: a FIFO would block the read
    if (!input) return input.error();
    const std::string name =
        escapeForMessage(path, kMessagePathLength);   // "path: problem", as the readers say
    constexpr std::size_t kMaxBytes = 16 << 20;       // configs are a few KiB; refuse the absurd
    if (input->size() > kMaxBytes) return Error{name + ": larger than 16 MiB, not a config.json"};
    std::string contents;
    char buffer[65536];
    while (const std::size_t got = std::fread(buffer, 1, sizeof buffer, input->stream())) {
        contents.append(buffer, got);
        if (contents.size() > kMaxBytes)  // grown since the fstat
            return Error{name + ": larger than 16 MiB, not a config.json"};
    }
    if (std::ferror(input->stream()))
        return Error{name + ": read error (" + std::strerror(errno) + ")"};
    auto config = parseHfConfig(contents);
    if (!config) return Error{name + ": " + config.error().message};
    return config;
}

}  // namespace poslab
