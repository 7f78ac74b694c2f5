// hf_config.cpp — reads a Hugging Face config.json into RopeParams and the model's layers
// (io/hf_config.hpp). One topic over ~1300 lines: every step is a method of one Parser whose
// fields the later steps read (the sections chosen, the head_dim found, the notes gathered), so
// splitting it would mean publishing that parser as a core header. Jump by section:
//
// [SECTION] Reading JSON values (one-line messages, aliases)
// [SECTION] The parser: one struct whose steps share what they have read
// [SECTION] Sections, base, head_dim, rotary fraction, max positions, pairing
// [SECTION] Multimodal RoPE (mrope_section and its layouts)
// [SECTION] rope_scaling: its type, factor and per-type keys
// [SECTION] Class defaults and unknown keys
// [SECTION] LongRoPE lists and p-RoPE proportion
// [SECTION] Per-layer-type RoPE, global head_dim, attention temperature
// [SECTION] Layers: which use RoPE, their windows and types
// [SECTION] Entry points: parseHfConfig, loadHfConfig

#include "poslab/io/hf_config.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/io/json_reader.hpp"

namespace poslab {

namespace {

using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading JSON values (one-line messages, aliases)
// ---------------------------------------------------------------------------------------------

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
    // The configuration class's defaults for keys the file leaves out (applyClassDefaults): read
    // behind the file's object, never merged into a copy of it (a copy recurses per level).
    const json* defaults = nullptr;

    // The value, or null when the key is absent or JSON null (HF's .get() treats both as None).
    const json* find(const char* key) const {
        if (object == nullptr) return nullptr;
        const auto it = object->find(key);
        if (it != object->end() && !it->is_null()) return &*it;
        if (defaults == nullptr) return nullptr;
        const auto fallback = defaults->find(key);
        return fallback == defaults->end() ? nullptr : &*fallback;
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

// ---------------------------------------------------------------------------------------------
// [SECTION] The parser: one struct whose steps share what they have read
// ---------------------------------------------------------------------------------------------

// Everything parseHfConfig() builds, so the steps below can share it.
struct Parser {
    HfModelConfig config;
    Section root;   // the whole config (vision_config sits here)
    Section model;  // the root, or its text_config
    Section block;  // rope_scaling, or v5's rope_parameters; object null when absent
    bool blockIsRopeParameters = false;
    Section perLayerType;  // v5 rope_parameters keyed by layer type; object null otherwise
    std::string blockLayerType = "full_attention";  // the layer type `block` belongs to
    int plainHeadDim = 0;  // head_dim before Gemma 4's global_head_dim (0: not replaced)

    Status applyClassDefaults();

    void note(std::string line) { config.notes.push_back(std::move(line)); }
    void warn(std::string line) { config.warnings.push_back(std::move(line)); }

    Status selectSections(const json& root);
    Status readBase();
    Status readHeadDim();
    Status readRotaryFraction();
    Status readMaxPositions();
    Status readScaling();
    Status readPairing();
    Status readMultimodal();
    Status readTypeSpecific(RopeScaling type, const std::string& typeName);
    Status readLongRope(const std::string& typeName);
    Status readProportional();
    void warnUnknownKeys(const std::string& typeName);
    Status readLayers();
    Status readTemperature();
    Status readGlobalHeadDim();
    Result<RopeParams> slidingRope(bool& differs);
    Result<RopeParams> layerTypeRope(const std::string& layerType);
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Sections, base, head_dim, rotary fraction, max positions, pairing
// ---------------------------------------------------------------------------------------------

Status Parser::selectSections(const json& root) {
    const Section rootSection{&root, ""};
    this->root = rootSection;
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

    if (auto s = applyClassDefaults(); !s) return s;

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
    // transformers v5 keys per-layer settings by layer type (Gemma 3 and 4, ...): every key a
    // layer type ("..._attention") holding an object. The default RoPE is full_attention's, else
    // the first type's.
    bool keyedByLayerType = blockIsRopeParameters && !block.object->empty();
    if (keyedByLayerType) {
        for (const auto& [key, value] : block.object->items()) {
            const bool layerTypeKey =
                key.size() > 10 && key.compare(key.size() - 10, 10, "_attention") == 0;
            if (!layerTypeKey) keyedByLayerType = false;
        }
    }
    if (keyedByLayerType) {
        for (const auto& [key, value] : block.object->items()) {
            if (!value.is_object()) {
                return Error{block.name(key.c_str()) + " must be an object (got " +
                             describe(value) + ")"};
            }
        }
        blockLayerType =
            block.has("full_attention") ? "full_attention" : block.object->begin().key();
        perLayerType = block;
        const json& chosen = *block.find(blockLayerType.c_str());
        block = Section{&chosen, block.name(blockLayerType.c_str()) + "."};
        note("rope_parameters is given per layer type; the default RoPE is " + blockLayerType +
             "'s");
    }
    return success();
}

Status Parser::readBase() {
    // v5 keeps rope_theta inside rope_parameters (per layer type): that one wins.
    const auto found = firstPresent({{&block, "rope_theta"},
                                     {&model, "rope_theta"},
                                     {&model, "global_rope_theta"},
                                     {&model, "rotary_emb_base"}});
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
    } else if (std::string_view(found->key) == "global_rope_theta") {
        note("rope_theta taken from global_rope_theta (ModernBERT's global layers)");
    }
    return success();
}

Status Parser::readHeadDim() {
    // DeepSeek-V2/V3 split each query/key head into a NoPE part and a RoPE part; the
    // configuration class sets head_dim = qk_rope_head_dim, the part that rotates.
    auto ropeHead = readPositiveInt(model, "qk_rope_head_dim");
    if (!ropeHead) return ropeHead.error();
    if (*ropeHead) {
        config.rope.headDim = **ropeHead;
        config.headDimSource = "qk_rope_head_dim";
        auto nope = readPositiveInt(model, "qk_nope_head_dim");
        if (!nope) return nope.error();
        std::string line = "head_dim = qk_rope_head_dim = " + std::to_string(**ropeHead) +
                           ": only this part of each query/key head is rotated";
        if (*nope) line += " (qk_nope_head_dim " + std::to_string(**nope) + " is not)";
        note(line);
        return success();
    }
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
        config.headDimSource = "head_dim";
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
    config.headDimSource = std::string(hiddenKey->key) + " // " + headsKey->key;
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
        if (model.has("rotary_dim") && std::string_view(found->key) != "rotary_pct") {
            // MiniMax configs carry both; older MiniMax code rotated rotary_dim dims.
            note("rotary_dim is ignored: current transformers reads partial_rotary_factor " +
                 text(**fraction) + " (older releases read rotary_dim for MiniMax)");
        }
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
    } else if (config.modelType == "llama4" || config.modelType == "llama4_text") {
        // Llama 4 rotates with complex multiplication over view_as_complex(x.reshape(..., 2)).
        config.rope.pairing = RopePairing::Interleaved;
        note("llama4 rotates (2i, 2i+1) as complex numbers: interleaved pairing");
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

// ---------------------------------------------------------------------------------------------
// [SECTION] Multimodal RoPE (mrope_section and its layouts)
// ---------------------------------------------------------------------------------------------

Status Parser::readMultimodal() {
    const std::string& type = config.modelType;
    MropeModel model = MropeModel::Qwen2VL;
    bool known = true;
    if (type == "qwen2_5_vl" || type == "qwen2_5_vl_text") {
        model = MropeModel::Qwen25VL;
    } else if (type == "qwen3_vl" || type == "qwen3_vl_moe" || type == "qwen3_vl_text" ||
               type == "qwen3_vl_moe_text") {
        model = MropeModel::Qwen3VL;
    } else if (type != "qwen2_vl" && type != "qwen2_vl_text") {
        known = false;
    }
    std::string typeName;
    if (block.object != nullptr) {
        auto t = readString(block, block.has("rope_type") ? "rope_type" : "type");
        if (t && *t) typeName = **t;
    }
    const bool hasSection = block.has("mrope_section");
    if (!hasSection && typeName != "mrope" && !(known && model == MropeModel::Qwen3VL)) {
        return success();
    }
    MropeSettings settings = mropePreset(model);
    settings.headDim = rotatedDims(config.rope);
    settings.base = config.rope.base;
    if (hasSection) {
        const json& value = *block.find("mrope_section");
        const std::string name = block.name("mrope_section");
        const std::string shown =
            value.is_array()
                ? escapeForMessage(value.dump(-1, ' ', false, json::error_handler_t::replace), 40)
                : describe(value);
        const bool triple = value.is_array() && value.size() == 3;
        for (std::size_t i = 0; triple && i < 3; ++i) {
            if (!value[i].is_number_integer() || value[i].get<long long>() < 0 ||
                value[i].get<long long>() > 100000) {
                return Error{name + " must be 3 non-negative integers [T, H, W] (got " + shown +
                             ")"};
            }
            settings.section[i] = int(value[i].get<long long>());
        }
        if (!triple) {
            return Error{name + " must be 3 non-negative integers [T, H, W] (got " + shown + ")"};
        }
    } else if (model == MropeModel::Qwen3VL) {
        note("mrope_section not given: Qwen3-VL's default [24, 20, 20]");
    } else {
        return Error{block.name("mrope_section") +
                     " is missing (mrope needs the pair counts [T, H, W])"};
    }
    if (auto s = validateMropeSection(settings.section, settings.headDim); !s) {
        return Error{block.name("mrope_section") + s.error().message.substr(13) +
                     " (rotated dims " + std::to_string(settings.headDim) + ")"};
    }
    auto interleaved = readBool(block, "mrope_interleaved");
    if (!interleaved) return interleaved.error();
    if (model == MropeModel::Qwen3VL) {
        settings.layout = MropeLayout::Interleaved;
        if (!interleaved->has_value()) note("Qwen3-VL always interleaves the mrope sections");
    } else {
        settings.layout =
            interleaved->value_or(false) ? MropeLayout::Interleaved : MropeLayout::Contiguous;
        if (!known) {
            model = settings.layout == MropeLayout::Interleaved ? MropeModel::Qwen3VL
                                                                : MropeModel::Qwen2VL;
            note("model_type " + quoteForMessage(type, 40) + " is not a Qwen VL model: its " +
                 "positions are computed as " + std::string(mropeModelName(model)) + "'s");
        }
    }
    settings.model = model;
    if (auto s = mropePairStreams(settings.section, settings.headDim, settings.layout); !s) {
        return Error{block.name("mrope_section") + ": " + s.error().message};
    }
    Section vision;
    if (const json* v = root.find("vision_config")) {
        if (!v->is_object()) {
            return Error{"vision_config must be an object (got " + describe(*v) + ")"};
        }
        vision = Section{v, "vision_config."};
    }
    auto merge = readPositiveInt(vision, "spatial_merge_size");
    if (!merge) return merge.error();
    settings.spatialMergeSize = merge->value_or(2);
    if (settings.spatialMergeSize > kMaxSpatialMerge) {
        return Error{"vision_config.spatial_merge_size must be 1.." +
                     std::to_string(kMaxSpatialMerge) + " (got " +
                     std::to_string(settings.spatialMergeSize) + ")"};
    }
    if (!merge->has_value()) note("vision_config.spatial_merge_size not given: 2");
    if (model == MropeModel::Qwen25VL) {
        auto tps = readNumber(vision, "tokens_per_second");
        if (!tps) return tps.error();
        settings.tokensPerSecond = tps->value_or(4.0);
        if (!(settings.tokensPerSecond > 0) || settings.tokensPerSecond > 1000) {
            return Error{"vision_config.tokens_per_second must be > 0 and <= 1000 (got " +
                         text(settings.tokensPerSecond) + ")"};
        }
        if (!tps->has_value()) {
            note("vision_config.tokens_per_second not given: the class default 4");
        }
    }
    if (auto s = validate(settings); !s) return Error{"multimodal RoPE: " + s.error().message};
    note("multimodal RoPE (" + std::string(mropeModelName(model)) + "): mrope_section [" +
         std::to_string(settings.section[0]) + ", " + std::to_string(settings.section[1]) + ", " +
         std::to_string(settings.section[2]) + "], " +
         std::string(mropeLayoutName(settings.layout)));
    config.mrope = settings;
    return success();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] rope_scaling: its type, factor and per-type keys
// ---------------------------------------------------------------------------------------------

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

    if (name == "su") {
        name = "longrope";
        note("rope type 'su' is the legacy name of longrope (as Phi3Config maps it)");
    } else if (name == "yarn" && (config.modelType == "phi3" || config.modelType == "phimoe") &&
               (block.has("short_factor") || block.has("long_factor"))) {
        name = "longrope";
        note("Phi3Config maps rope type 'yarn' to longrope for backward compatibility");
    }

    RopeScaling type;
    if (name == "default" || name == "mrope") {
        type = RopeScaling::None;
        // Qwen2-VL's mrope splits the pairs between time, height and width positions; for one
        // text position all three are equal, which is plain RoPE (HF maps it to "default").
        if (name == "mrope") {
            note(
                "mrope is plain RoPE for text positions (HF maps it to default); the Vision "
                "RoPE view shows its three position streams");
        }
        // Qwen3-VL says rope_type "default" beside its mrope keys: those are known then.
        if (block.has("mrope_section")) name = "mrope";
    } else if (name == "linear") {
        type = RopeScaling::Linear;
    } else if (name == "dynamic") {
        type = RopeScaling::DynamicNtk;
    } else if (name == "yarn") {
        type = RopeScaling::Yarn;
    } else if (name == "llama3") {
        type = RopeScaling::Llama3;
    } else if (name == "longrope") {
        type = RopeScaling::LongRope;
    } else if (name == "proportional") {
        type = RopeScaling::Proportional;
    } else {
        return Error{block.name(typeKey) + " " + quoteForMessage(name, 40) +
                     " is not supported (supported: default, linear, dynamic, yarn, llama3, "
                     "longrope, su, proportional, mrope)"};
    }
    config.rope.scaling.type = type;
    warnUnknownKeys(name);
    if (type == RopeScaling::None) return success();
    if (type == RopeScaling::LongRope) return readLongRope(name);
    if (type == RopeScaling::Proportional) return readProportional();
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
        if (type == RopeScaling::Yarn && *original && config.maxPositionEmbeddings > 0) {
            const double implicit = double(config.maxPositionEmbeddings) / **original;
            // transformers v5 stays silent when the ratio is 1: max_position_embeddings was then
            // left at the pre-extension length (Qwen2.5's documented YaRN opt-in does this).
            if (implicit == 1.0 && scaling.factor != 1.0) {
                note(
                    "max_position_embeddings equals original_max_position_embeddings (implicit "
                    "factor 1); the explicit yarn factor " +
                    text(scaling.factor) + " applies");
            } else if (std::abs(implicit - scaling.factor) > 1e-9 * scaling.factor) {
                warn("the explicit yarn factor " + text(scaling.factor) +
                     " does not match max_position_embeddings / original_max_position_embeddings"
                     " = " +
                     text(implicit) + "; HF (and PosLab) use the explicit factor");
            }
        }
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
        if (!(scaling.highFreqFactor >= scaling.lowFreqFactor)) {
            return Error{block.name("high_freq_factor") + " must be >= low_freq_factor " +
                         text(scaling.lowFreqFactor) + " (got " + text(scaling.highFreqFactor) +
                         ")"};
        }
        if (scaling.highFreqFactor == scaling.lowFreqFactor) {
            note(
                "llama3 with low_freq_factor == high_freq_factor: no smoothed band; wavelengths "
                "above " +
                text(config.rope.trainingLength / scaling.lowFreqFactor) +
                " are divided by the factor, the others kept");
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
    if (config.modelType.rfind("deepseek", 0) == 0 && scaling.mscaleAllDim.value_or(0.0) != 0.0) {
        // Outside RoPE: DeepSeek's attention multiplies its softmax scale by mscale^2.
        const double m = yarnMscale(scaling.factor, *scaling.mscaleAllDim);
        note(
            "DeepSeek attention also multiplies the softmax scale by get_mscale(factor, "
            "mscale_all_dim)^2 = " +
            text(m * m) + " (not part of the RoPE attention factor)");
    }
    auto truncate = readBool(block, "truncate");
    if (!truncate) return truncate.error();
    scaling.truncate = truncate->value_or(true);
    if (perLayerType.object != nullptr && !scaling.truncate) {
        // _compute_yarn_parameters reads truncate from config.rope_parameters itself, which is
        // the per-layer-type dict here: the layer's own "truncate": false is never seen.
        scaling.truncate = true;
        note(block.name("truncate") +
             " is false, but transformers reads truncate from the top of rope_parameters "
             "(keyed by layer type here), so the correction range is truncated");
    }
    return success();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Class defaults and unknown keys
// ---------------------------------------------------------------------------------------------

// Keys a configuration class fills in when config.json leaves them out (their __init__ defaults);
// Gemma 3's published configs, for one, give little more than hidden_size and the layer count.
Status Parser::applyClassDefaults() {
    static const std::vector<std::pair<std::string, json>> kDefaults = {
        {"gemma3_text",
         {{"head_dim", 256},
          {"num_attention_heads", 8},
          {"rope_theta", 1000000.0},
          {"rope_local_base_freq", 10000.0},
          {"max_position_embeddings", 131072},
          {"sliding_window", 4096}}},
        {"modernbert",
         {{"global_rope_theta", 160000.0},
          {"local_rope_theta", 10000.0},
          {"global_attn_every_n_layers", 3},
          {"local_attention", 128},
          {"max_position_embeddings", 8192}}},
        {"falcon", {{"max_position_embeddings", 2048}}},
        {"gptj", {{"n_positions", 2048}, {"rotary_dim", 64}}},
        {"deepseek_v3", {{"rope_interleave", true}}},
        {"kimi_k2", {{"rope_interleave", true}}},  // DeepseekV3 modeling (its architectures)
        // Gemma4TextConfig: full layers proportional p-RoPE on global_head_dim, sliding default.
        {"gemma4_text",
         {{"head_dim", 256},
          {"global_head_dim", 512},
          {"max_position_embeddings", 131072},
          {"sliding_window", 512},
          {"rope_parameters",
           {{"full_attention",
             {{"rope_type", "proportional"},
              {"partial_rotary_factor", 0.25},
              {"rope_theta", 1000000.0}}},
            {"sliding_attention", {{"rope_type", "default"}, {"rope_theta", 10000.0}}}}}}},
        {"llama4_text", {{"attention_chunk_size", 8192}, {"rope_theta", 500000.0}}},
    };
    std::string type = config.modelType;
    if (type == "gemma3" && model.prefix == "text_config.") type = "gemma3_text";
    if (type == "gemma4" && model.prefix == "text_config.") type = "gemma4_text";
    if (type == "llama4" && model.prefix == "text_config.") type = "llama4_text";
    for (const auto& [name, defaults] : kDefaults) {
        if (name != type) continue;
        std::string applied;
        for (const auto& [key, value] : defaults.items()) {
            if (model.has(key.c_str())) continue;
            // A layer_types list replaces Gemma's pattern; keep the window default regardless.
            applied += (applied.empty() ? "" : ", ") + key + " " + value.dump();
        }
        if (!applied.empty()) {
            note(name + " configuration defaults for absent keys: " + applied);
            model.defaults = &defaults;
        }
    }
    return success();
}

// HF's _check_received_keys: keys a rope type does not read are reported, not refused.
void Parser::warnUnknownKeys(const std::string& typeName) {
    static const std::vector<std::pair<std::string, std::vector<std::string>>> kKeys = {
        {"default", {}},
        {"mrope", {"mrope_section", "mrope_interleaved"}},
        {"linear", {"factor"}},
        {"dynamic", {"factor"}},
        {"yarn",
         {"factor", "attention_factor", "beta_fast", "beta_slow",
          "original_max_position_embeddings", "mscale", "mscale_all_dim", "truncate"}},
        {"longrope",
         {"short_factor", "long_factor", "factor", "attention_factor",
          "original_max_position_embeddings"}},
        {"llama3",
         {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}},
        {"proportional", {"factor"}},
    };
    const std::vector<std::string>* known = nullptr;
    for (const auto& [name, keys] : kKeys) {
        if (name == typeName) known = &keys;
    }
    if (known == nullptr || block.object == nullptr) return;
    std::string unknown;
    for (const auto& [key, value] : block.object->items()) {
        // Keys every type carries (v5 moves rope_theta and partial_rotary_factor in here).
        if (key == "rope_type" || key == "type" || key == "rope_theta" ||
            key == "partial_rotary_factor") {
            continue;
        }
        if (std::find(known->begin(), known->end(), key) != known->end()) continue;
        unknown += (unknown.empty() ? "" : ", ") + key;
    }
    if (!unknown.empty()) {
        warn("unrecognized keys in " + block.prefix.substr(0, block.prefix.size() - 1) +
             " for rope type " + typeName + ": " + unknown + " (HF ignores them)");
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] LongRoPE lists and p-RoPE proportion
// ---------------------------------------------------------------------------------------------

Status Parser::readLongRope(const std::string& typeName) {
    RopeScalingParams& scaling = config.rope.scaling;
    for (const char* key : {"short_factor", "long_factor"}) {
        const json* value = block.find(key);
        if (value == nullptr) {
            return Error{block.name(key) + " is required for rope type " + typeName};
        }
        if (!value->is_array()) {
            return Error{block.name(key) + " must be a list of numbers (got " + describe(*value) +
                         ")"};
        }
        std::vector<double> list;
        for (std::size_t i = 0; i < value->size(); ++i) {
            const json& item = (*value)[i];
            if (!item.is_number() || !(item.get<double>() > 0.0)) {
                return Error{block.name(key) + "[" + std::to_string(i) +
                             "] must be a number > 0 (got " + describe(item) + ")"};
            }
            list.push_back(item.get<double>());
        }
        (std::string_view(key) == "short_factor" ? scaling.shortFactor : scaling.longFactor) =
            std::move(list);
    }
    const int pairs = rotatedDims(config.rope) / 2;
    for (const auto& [key, list] : {std::pair{"short_factor", &scaling.shortFactor},
                                    std::pair{"long_factor", &scaling.longFactor}}) {
        if (int(list->size()) != pairs) {
            return Error{block.name(key) +
                         " must have rotated dims / 2 = " + std::to_string(pairs) +
                         " entries (got " + std::to_string(list->size()) + ")"};
        }
    }

    auto factor = readNumber(block, "factor");
    if (!factor) return factor.error();
    auto attention = readNumber(block, "attention_factor");
    if (!attention) return attention.error();
    if (*attention) {
        if (auto s =
                requireInRange(block.name("attention_factor"), **attention, 0.0, 1000.0, false);
            !s) {
            return s;
        }
        scaling.attentionFactor = **attention;
    }
    // Phi-3 keeps the pre-extension context at the top level (v5 moves it into the block); HF
    // then takes s = max_position_embeddings / original_max_position_embeddings.
    const auto originalKey = firstPresent({{&model, "original_max_position_embeddings"},
                                           {&block, "original_max_position_embeddings"}});
    std::optional<int> original;
    if (originalKey) {
        auto value = readPositiveInt(originalKey->section, originalKey->key);
        if (!value) return value.error();
        original = **value;
        if (auto s = requireIntInRange(originalKey->section.name(originalKey->key), *original, 1,
                                       kMaxRopePositions);
            !s) {
            return s;
        }
    }
    if (original && config.maxPositionEmbeddings > 0) {
        // transformers v5: an explicit factor wins; without one, s = max / original.
        // (v4 always took the ratio when original_max_position_embeddings was set.)
        const double implied = double(config.maxPositionEmbeddings) / *original;
        if (*factor) {
            scaling.factor = **factor;
            if (std::abs(implied - scaling.factor) > 1e-9 * scaling.factor) {
                warn("the explicit longrope factor " + text(scaling.factor) +
                     " disagrees with max_position_embeddings / original_max_position_embeddings"
                     " = " +
                     text(implied) + "; transformers v5 uses the explicit factor (v4 the ratio)");
            }
        } else {
            scaling.factor = implied;
            note(
                "longrope factor s = max_position_embeddings / "
                "original_max_position_embeddings = " +
                std::to_string(config.maxPositionEmbeddings) + " / " + std::to_string(*original) +
                " = " + text(scaling.factor));
        }
        config.rope.trainingLength = *original;
    } else {
        if (config.maxPositionEmbeddings == 0) {
            return Error{model.name("max_position_embeddings") +
                         " is required for rope type longrope"};
        }
        config.rope.trainingLength = config.maxPositionEmbeddings;
        if (*factor) {
            scaling.factor = **factor;
        } else {
            scaling.factor = 1;
            warn("missing " + block.name("factor") +
                 " for longrope (HF warns); the attention factor defaults to 1");
        }
    }
    if (scaling.factor < 1.0) {
        return Error{block.name("factor") + " must be >= 1 for longrope (got " +
                     text(scaling.factor) + ")"};
    }
    note("longrope: short_factor applies while seq_len <= " +
         std::to_string(config.rope.trainingLength) + ", long_factor past it");
    return success();
}

Status Parser::readProportional() {
    // HF divides the whole vector by factor (default 1) afterwards.
    auto factor = readNumber(block, "factor");
    if (!factor) return factor.error();
    if (*factor) {
        if (auto s = requireInRange(block.name("factor"), **factor, 1.0, 65536.0); !s) return s;
        config.rope.scaling.factor = **factor;
    }
    // p-RoPE reads partial_rotary_factor as the fraction of pairs that keep their frequency; all
    // head dims stay in the rotation layout (the dropped pairs rotate by 0).
    config.rope.scaling.ropeProportion = config.rope.rotaryFraction;
    config.rope.rotaryFraction = 1.0;
    note("proportional (p-RoPE): the fastest " +
         std::to_string(
             proportionalRotatedPairs(config.rope.headDim, config.rope.scaling.ropeProportion)) +
         " of " + std::to_string(config.rope.headDim / 2) +
         " pairs rotate with exponents over head_dim; the rest are NoPE channels (theta = 0)");
    return success();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Per-layer-type RoPE, global head_dim, attention temperature
// ---------------------------------------------------------------------------------------------

// The RoPE of sliding-window layers, when the model gives them their own; differs says so.
// The RoPE of one layer type keyed in v5's per-layer-type rope_parameters.
Result<RopeParams> Parser::layerTypeRope(const std::string& layerType) {
    const json& value = *perLayerType.find(layerType.c_str());
    Parser local = *this;
    local.block = Section{&value, perLayerType.name(layerType.c_str()) + "."};
    local.blockLayerType = layerType;
    local.config.rope.scaling = RopeScalingParams{};
    local.config.rope.rotaryFraction = 1.0;
    // Gemma 4: only the full-attention layers rotate global_head_dim; the others head_dim.
    if (plainHeadDim > 0) local.config.rope.headDim = plainHeadDim;
    local.config.notes.clear();
    local.config.warnings.clear();
    for (auto step : {&Parser::readBase, &Parser::readRotaryFraction, &Parser::readScaling}) {
        if (auto s = (local.*step)(); !s) return s.error();
    }
    for (auto& line : local.config.notes) note(layerType + ": " + line);
    for (auto& line : local.config.warnings) warn(layerType + ": " + line);
    if (auto s = validate(local.config.rope); !s) {
        return Error{perLayerType.name(layerType.c_str()) +
                     ": invalid RoPE setup: " + s.error().message};
    }
    return local.config.rope;
}

// The RoPE of sliding-window layers in pre-v5 configs, when the model gives them their own.
Result<RopeParams> Parser::slidingRope(bool& differs) {
    differs = false;
    RopeParams rope = config.rope;
    const bool gemma3 = config.modelType == "gemma3" || config.modelType == "gemma3_text";
    const char* localKey = model.has("rope_local_base_freq") ? "rope_local_base_freq"
                           : model.has("local_rope_theta")   ? "local_rope_theta"
                                                             : nullptr;
    if (localKey == nullptr && !gemma3) return rope;
    double base = 10000;  // Gemma3TextConfig's and ModernBertConfig's default
    if (localKey != nullptr) {
        auto value = readNumber(model, localKey);
        if (!value) return value.error();
        if (auto s = requireInRange(model.name(localKey), **value, 1.0, 1e12, false); !s) {
            return s.error();
        }
        base = **value;
    } else {
        note("rope_local_base_freq not given; Gemma 3's sliding layers use 10000");
    }
    rope.base = base;
    rope.scaling = RopeScalingParams{};  // HF builds the local rotary embedding without scaling
    rope.trainingLength =
        config.maxPositionEmbeddings > 0 ? config.maxPositionEmbeddings : rope.trainingLength;
    differs = true;
    note("sliding layers: base " + text(base) + " (" + (localKey ? localKey : "default") +
         "), no scaling");
    return rope;
}

// Gemma 4 (per_layer_config): full-attention layers use head_dim = global_head_dim.
Status Parser::readGlobalHeadDim() {
    const bool gemma4 = config.modelType == "gemma4" || config.modelType == "gemma4_text";
    if (!gemma4 || blockLayerType != "full_attention") return success();
    auto global = readPositiveInt(model, "global_head_dim");
    if (!global) return global.error();
    const int dims = global->value_or(512);
    if (auto s = requireIntInRange(model.name("global_head_dim"), dims, 2, kMaxDModel); !s) {
        return s;
    }
    plainHeadDim = config.rope.headDim;
    config.rope.headDim = dims;
    config.headDimSource = "global_head_dim (full-attention layers)";
    note("full_attention layers rotate global_head_dim " + std::to_string(dims) +
         " (Gemma 4's per-layer config); sliding layers keep head_dim " +
         std::to_string(plainHeadDim));
    return success();
}

// Llama 4's attn_temperature_tuning (true by default; old configs say 4): NoPE-layer queries
// scaled by log1p(floor((pos + 1) / floor_scale)) * attn_scale + 1.
Status Parser::readTemperature() {
    const bool llama4 = config.modelType == "llama4" || config.modelType == "llama4_text";
    if (!llama4) return success();
    const json* tuning = model.find("attn_temperature_tuning");
    bool enabled = true;
    if (tuning != nullptr) {
        if (tuning->is_boolean()) {
            enabled = tuning->get<bool>();
        } else if (tuning->is_number()) {
            enabled = tuning->get<double>() != 0.0;  // Python truthiness, as HF tests it
        } else {
            return Error{model.name("attn_temperature_tuning") +
                         " must be true, false or a number (got " + describe(*tuning) + ")"};
        }
    }
    if (!enabled) return success();
    AttentionTemperatureParams params;
    auto floorScale = readNumber(model, "floor_scale");
    if (!floorScale) return floorScale.error();
    auto attnScale = readNumber(model, "attn_scale");
    if (!attnScale) return attnScale.error();
    params.floorScale = floorScale->value_or(8192.0);
    params.attnScale = attnScale->value_or(0.1);
    if (auto s = validate(params); !s) return Error{model.prefix + s.error().message};
    config.attentionTemperature = params;
    note("attn_temperature_tuning: NoPE layers scale queries by log1p(floor((pos + 1) / " +
         text(params.floorScale) + ")) * " + text(params.attnScale) + " + 1");
    return success();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Layers: which use RoPE, their windows and types
// ---------------------------------------------------------------------------------------------

Status Parser::readLayers() {
    config.ropeVariants = {HfRopeVariant{blockLayerType, config.rope}};
    if (perLayerType.object != nullptr) {
        for (const auto& [key, value] : perLayerType.object->items()) {
            if (key == blockLayerType) continue;
            auto rope = layerTypeRope(key);
            if (!rope) return rope.error();
            config.ropeVariants.push_back({key, *rope});
        }
    } else {
        bool slidingDiffers = false;
        auto sliding = slidingRope(slidingDiffers);
        if (!sliding) return sliding.error();
        if (slidingDiffers) {
            if (auto s = validate(*sliding); !s) {
                return Error{"sliding layers: invalid RoPE setup: " + s.error().message};
            }
            config.ropeVariants.push_back({"sliding_attention", *sliding});
        }
    }

    const auto countKey =
        firstPresent({{&model, "num_hidden_layers"}, {&model, "n_layer"}, {&model, "num_layers"}});
    if (!countKey) {
        note("num_hidden_layers not given; no per-layer listing");
        return success();
    }
    auto count = readPositiveInt(model, countKey->key);
    if (!count) return count.error();
    if (auto s = requireIntInRange(model.name(countKey->key), **count, 1, 4096); !s) return s;
    const int layers = **count;
    const bool llama4 = config.modelType == "llama4" || config.modelType == "llama4_text";
    const bool gemma4 = config.modelType == "gemma4" || config.modelType == "gemma4_text";

    // NoPE layers: no_rope_layers[i] = 1 means layer i uses RoPE (Llama 4, SmolLM3). HF replaces
    // an absent or empty list by one from no_rope_layer_interval.
    std::vector<bool> usesRope(std::size_t(layers), true);
    std::string noRopeReason;
    const json* noRope = model.find("no_rope_layers");
    const bool intervalDefault = llama4 || config.modelType == "smollm3";
    if (noRope != nullptr && noRope->is_array() && !noRope->empty()) {
        if (int(noRope->size()) < layers) {
            return Error{model.name("no_rope_layers") + " must have at least " +
                         std::to_string(layers) + " entries (got " +
                         std::to_string(noRope->size()) + ")"};
        }
        for (int i = 0; i < layers; ++i) {
            const json& item = (*noRope)[std::size_t(i)];
            if (!item.is_number_integer() || (item.get<int>() != 0 && item.get<int>() != 1)) {
                return Error{model.name("no_rope_layers") + "[" + std::to_string(i) +
                             "] must be 0 or 1 (got " + describe(item) + ")"};
            }
            usesRope[std::size_t(i)] = item.get<int>() == 1;
        }
        noRopeReason = "no_rope_layers";
        note("no_rope_layers: a 0 marks a NoPE layer (no rotation), a 1 a RoPE layer");
    } else if (noRope != nullptr && !noRope->is_array()) {
        return Error{model.name("no_rope_layers") + " must be a list of 0/1 (got " +
                     describe(*noRope) + ")"};
    } else if (model.has("no_rope_layer_interval") || intervalDefault) {
        auto interval = readPositiveInt(model, "no_rope_layer_interval");
        if (!interval) return interval.error();
        const int every = interval->value_or(4);
        for (int i = 0; i < layers; ++i) usesRope[std::size_t(i)] = (i + 1) % every != 0;
        noRopeReason = "no_rope_layer_interval " + std::to_string(every);
        note("every " + std::to_string(every) + "th layer is NoPE (no_rope_layer_interval)");
    }

    // Attention windows.
    auto slidingWindow = readPositiveInt(model, "sliding_window");
    if (!slidingWindow) return slidingWindow.error();
    auto localAttention = readPositiveInt(model, "local_attention");
    if (!localAttention) return localAttention.error();
    auto chunkSize = readPositiveInt(model, "attention_chunk_size");
    if (!chunkSize) return chunkSize.error();
    std::vector<std::string> types(std::size_t(layers), "full_attention");
    const json* layerTypes = model.find("layer_types");
    const json* pattern = model.find("sliding_window_pattern");
    const bool modernBert = config.modelType == "modernbert";
    if (layerTypes != nullptr) {
        if (!layerTypes->is_array() || int(layerTypes->size()) != layers) {
            return Error{model.name("layer_types") + " must be a list of " +
                         std::to_string(layers) + " strings (one per layer)"};
        }
        for (int i = 0; i < layers; ++i) {
            const json& item = (*layerTypes)[std::size_t(i)];
            if (!item.is_string()) {
                return Error{model.name("layer_types") + "[" + std::to_string(i) +
                             "] must be a string (got " + describe(item) + ")"};
            }
            types[std::size_t(i)] = item.get<std::string>();
        }
    } else if (llama4) {
        // Llama4TextConfig: RoPE layers are chunked_attention, NoPE layers full_attention.
        for (int i = 0; i < layers; ++i) {
            if (usesRope[std::size_t(i)]) types[std::size_t(i)] = "chunked_attention";
        }
        note(
            "layer_types not given: RoPE layers are chunked_attention, NoPE layers "
            "full_attention (Llama4TextConfig)");
    } else if (model.has("full_attention_interval") || config.modelType == "qwen3_next") {
        // Qwen3NextConfig: Gated DeltaNet (linear attention) except every n-th layer.
        auto interval = readPositiveInt(model, "full_attention_interval");
        if (!interval) return interval.error();
        const int n = interval->value_or(4);
        for (int i = 0; i < layers; ++i) {
            if ((i + 1) % n != 0) types[std::size_t(i)] = "linear_attention";
        }
        note("every " + std::to_string(n) +
             "th layer is full attention, the others linear attention (full_attention_interval)");
    } else if (config.modelType == "gemma2") {
        for (int i = 0; i < layers; i += 2) types[std::size_t(i)] = "sliding_attention";
        note("Gemma 2 alternates: even layers sliding, odd layers full");
    } else if (pattern != nullptr && pattern->is_string()) {
        // EXAONE 4: "LLLG" repeats, L a local (sliding) layer, G a global one.
        const std::string letters = pattern->get<std::string>();
        if (letters.empty() || letters.find_first_not_of("LG") != std::string::npos) {
            return Error{model.name("sliding_window_pattern") +
                         " must be an integer or a string of L and G (got " + describe(*pattern) +
                         ")"};
        }
        for (int i = 0; i < layers; ++i) {
            if (letters[std::size_t(i) % letters.size()] == 'L') {
                types[std::size_t(i)] = "sliding_attention";
            }
        }
        note("sliding_window_pattern " + letters + ": L sliding, G full attention, repeated");
    } else if (pattern != nullptr || config.modelType == "gemma3_text" ||
               config.modelType == "gemma3" || gemma4) {
        auto every = readPositiveInt(model, "sliding_window_pattern");
        if (!every) return every.error();
        const int n = every->value_or(6);
        if (!*every) note("sliding_window_pattern not given; Gemma's default is 6");
        for (int i = 0; i < layers; ++i) {
            if ((i + 1) % n != 0) types[std::size_t(i)] = "sliding_attention";
        }
        if (gemma4) types.back() = "full_attention";  // Gemma4TextConfig forces the last layer
        note("every " + std::to_string(n) + "th layer is full attention, the others sliding");
    } else if (modernBert) {
        auto every = readPositiveInt(model, "global_attn_every_n_layers");
        if (!every) return every.error();
        const int n = every->value_or(3);
        for (int i = 0; i < layers; ++i) {
            if (i % n != 0) types[std::size_t(i)] = "sliding_attention";
        }
        note("ModernBERT: layers 0, " + std::to_string(n) + ", " + std::to_string(2 * n) +
             ", ... are global; the others attend to local_attention " +
             std::to_string(localAttention->value_or(128)) + " tokens (half on each side)");
    } else if (*slidingWindow) {
        auto useSliding = readBool(model, "use_sliding_window");
        if (!useSliding) return useSliding.error();
        if (!*useSliding) {
            for (auto& type : types) type = "sliding_attention";
            note("sliding_window " + std::to_string(**slidingWindow) + " applies to every layer");
        } else if (**useSliding) {
            auto from = readPositiveInt(model, "max_window_layers");
            if (!from) return from.error();
            for (int i = from->value_or(0); i < layers; ++i) {
                types[std::size_t(i)] = "sliding_attention";
            }
        }
    }

    // EXAONE 4 ("global NoPE"): with sliding_window set, only sliding layers apply RoPE.
    const bool exaone = config.modelType == "exaone4" || config.modelType == "exaone_moe" ||
                        config.modelType == "exaone4_5" || config.modelType == "exaone4_5_text";
    const bool globalNope =
        exaone && *slidingWindow &&
        std::find(types.begin(), types.end(), "sliding_attention") != types.end();

    const int window = modernBert ? localAttention->value_or(128) : slidingWindow->value_or(0);
    for (int i = 0; i < layers; ++i) {
        HfLayer layer;
        layer.layerType = types[std::size_t(i)];
        if (layer.layerType == "sliding_attention") {
            layer.window = AttentionWindow::Sliding;
            layer.slidingWindow = window;
        } else if (layer.layerType == "chunked_attention") {
            layer.window = AttentionWindow::Chunked;
            layer.slidingWindow = chunkSize->value_or(8192);
        } else if (layer.layerType == "linear_attention") {
            layer.window = AttentionWindow::Linear;
        }
        layer.ropeVariant = 0;
        for (std::size_t v = 0; v < config.ropeVariants.size(); ++v) {
            if (config.ropeVariants[v].layerType == layer.layerType) layer.ropeVariant = int(v);
        }
        if (layer.window == AttentionWindow::Linear) {
            layer.noRopeReason = "linear attention (Gated DeltaNet)";
        } else if (!usesRope[std::size_t(i)]) {
            layer.noRopeReason = noRopeReason;
        } else if (globalNope && layer.window != AttentionWindow::Sliding) {
            layer.noRopeReason = "global NoPE: sliding_window is set";
        }
        if (!layer.noRopeReason.empty()) layer.ropeVariant = -1;
        config.layers.push_back(layer);
    }
    // Name the default RoPE after the layers that use it (Llama 4: chunked_attention; EXAONE 4:
    // sliding_attention) when the full-attention layers it was read for exist but have no RoPE.
    // (Phi-3 and Mistral list only sliding layers: their RoPE keeps its name.)
    bool ownTypePresent = false, ownTypeUsesIt = false;
    for (const HfLayer& layer : config.layers) {
        if (layer.layerType != config.ropeVariants[0].layerType) continue;
        ownTypePresent = true;
        ownTypeUsesIt = ownTypeUsesIt || layer.ropeVariant == 0;
    }
    if (ownTypePresent && !ownTypeUsesIt && perLayerType.object == nullptr) {
        for (const HfLayer& layer : config.layers) {
            if (layer.ropeVariant == 0) {
                config.ropeVariants[0].layerType = layer.layerType;
                break;
            }
        }
    }
    if (config.ropeVariants.size() > 1) {
        note("the default RoPE shown is the " + config.ropeVariants[0].layerType +
             " layers'; other layer types use their own");
    }
    if (globalNope) {
        note(
            "EXAONE 4 global NoPE: sliding_window is set, so full-attention layers apply no "
            "RoPE");
    }
    // Where transformers changed its answer between releases.
    if (config.modelType == "olmo3" && config.rope.scaling.type != RopeScaling::None) {
        note("transformers 4.57 gave OLMo 3's sliding layers plain RoPE (no " +
             std::string(scalingName(config.rope.scaling.type)) +
             "); current transformers scales every layer, as shown");
    }
    return success();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry points: parseHfConfig, loadHfConfig
// ---------------------------------------------------------------------------------------------

Result<HfModelConfig> parseHfConfig(std::string_view jsonText) {
    try {
        auto parsed = parseJson(jsonText);  // bounded depth and memory; never throws
        if (!parsed) {
            const std::string& why = parsed.error().message;  // "not valid JSON: ..." or a limit
            // One short line a status line holds: the line and the key, not the parser's text.
            if (const std::string place = jsonSyntaxErrorPlace(jsonText); !place.empty())
                return Error{"config.json is not valid JSON: " + place};
            return Error{"config.json " + std::string(why.rfind("not valid", 0) == 0 ? "is " : "") +
                         why};
        }
        const json root = std::move(parsed).value();
        if (!root.is_object()) {
            return Error{"config.json must be a JSON object (got " + describe(root) + ")"};
        }
        Parser parser;
        if (auto s = parser.selectSections(root); !s) return s.error();
        // In this order: the rotary fraction needs the head dim, the scaling the max positions.
        for (auto step :
             {&Parser::readHeadDim, &Parser::readGlobalHeadDim, &Parser::readBase,
              &Parser::readRotaryFraction, &Parser::readMaxPositions, &Parser::readScaling,
              &Parser::readPairing, &Parser::readMultimodal, &Parser::readTemperature}) {
            if (auto s = (parser.*step)(); !s) return s.error();
        }
        if (auto s = validate(parser.config.rope); !s) {
            return Error{"config.json gives an invalid RoPE setup: " + s.error().message};
        }
        if (auto s = parser.readLayers(); !s) return s.error();
        return parser.config;
    } catch (const std::exception& e) {
        // Every access above checks types first; this keeps the no-throw promise regardless.
        return Error{"cannot read config.json: " + withoutExceptionTag(e.what())};
    }
}

Result<HfModelConfig> loadHfConfig(const std::string& path) {
    // Regular files only (a FIFO would block the read); configs are a few KiB: refuse the absurd.
    auto contents = readUserTextFile(path, std::size_t(16) << 20, "a config.json");
    if (!contents) return contents.error();
    auto config = parseHfConfig(*contents);
    if (!config)
        return Error{escapeForMessage(path, kMessagePathLength) + ": " + config.error().message};
    return config;
}

}  // namespace poslab
