// position_table.cpp — finding a model's position table in a .safetensors checkpoint and the rows
// before position 0 (io/position_table.hpp).
#include "poslab/io/position_table.hpp"

#include <filesystem>
#include <string>
#include <system_error>

#include "poslab/base/format.hpp"
#include "poslab/io/input_file.hpp"
#include "poslab/io/json_reader.hpp"

namespace poslab {

namespace {

bool endsWithComponent(std::string_view name, std::string_view suffix) {
    if (name.size() < suffix.size() || name.substr(name.size() - suffix.size()) != suffix) {
        return false;
    }
    return name.size() == suffix.size() || name[name.size() - suffix.size() - 1] == '.';
}

}  // namespace

// ---- Choosing the position table

const std::vector<std::string>& positionTableNames() {
    static const std::vector<std::string> names = {
        "wpe.weight",                  // GPT-2, GPT-Neo, DistilGPT-2
        "position_embeddings.weight",  // BERT, RoBERTa, XLM-R, ELECTRA, DistilBERT
        "embed_positions.weight",      // OPT, BART, mBART, BioGPT, Whisper
        "position_embedding.weight",   // CLIP (Hugging Face layout)
        "positional_embedding",        // OpenAI CLIP
        "pos_embed",                   // timm vision transformers
        "pos_emb.weight",              // minGPT-style models
    };
    return names;
}

bool isPositionTableName(std::string_view tensor) {
    for (const std::string& suffix : positionTableNames()) {
        if (endsWithComponent(tensor, suffix)) return true;
    }
    return false;
}

Result<std::string> findPositionTable(const SafetensorsHeader& header, std::string_view name) {
    for (const auto& tensor : header.tensors) {
        if (isPositionTableName(tensor.name)) return tensor.name;
    }
    std::string some;
    for (std::size_t i = 0; i < header.tensors.size() && i < 3; ++i) {
        some += (i ? ", " : "") + shownTensorName(header.tensors[i].name);
    }
    if (header.tensors.size() > 3) some += ", ...";
    return safetensorsFileError(
        name,
        "no tensor named like a position table (*wpe.weight, "
        "*position_embeddings.weight, *embed_positions.weight, ...) among " +
            std::to_string(header.tensors.size()) + " tensors" +
            (some.empty() ? std::string() : " (" + some + ")"));
}

Result<std::string> findPositionTable(const std::string& path) {
    auto header = readSafetensorsHeader(path);
    if (!header) return header.error();
    return findPositionTable(*header, path);
}

// ---- Offsets

PositionOffset positionOffsetFor(std::string_view modelType, int padTokenId) {
    std::string type(modelType);
    std::replace(type.begin(), type.end(), '_', '-');
    // Learned tables with a fixed offset of 2 (OPTLearnedPositionalEmbedding and its kin).
    for (std::string_view offsetTwo : {"opt", "bart", "mbart", "biogpt", "plbart", "mvp"}) {
        if (type == offsetTwo) {
            return {2, type + " stores position p in row p + 2: the first 2 rows dropped"};
        }
    }
    // create_position_ids_from_input_ids: positions count from padding_idx + 1.
    for (std::string_view fromPad :
         {"roberta", "xlm-roberta", "xlm-roberta-xl", "camembert", "roberta-prelayernorm",
          "data2vec-text", "longformer", "ibert", "mpnet", "luke", "markuplm", "xmod"}) {
        if (type == fromPad) {
            const bool known = padTokenId >= 0;
            const int pad = known ? padTokenId : 1;
            return {pad + 1,
                    type + " counts positions from pad_token_id + 1 = " + std::to_string(pad + 1) +
                        (known ? "" : " (pad_token_id absent: 1)") + ": the first " +
                        std::to_string(pad + 1) + " rows dropped"};
        }
    }
    if (type.empty()) return {0, "no model_type: row i taken as position i"};
    return {0, type + ": row i is position i"};
}

Result<PositionOffset> positionOffsetFromConfig(std::string_view configJson) {
    auto parsed = parseJson(configJson);  // bounded depth and memory; never throws
    if (!parsed) {
        const std::string& why = parsed.error().message;
        return Error{"config " + std::string(why.rfind("not valid", 0) == 0 ? "is " : "") + why};
    }
    const nlohmann::json root = std::move(parsed).value();
    if (!root.is_object()) return Error{"config is not a JSON object"};
    std::string type;
    if (auto it = root.find("model_type"); it != root.end() && !it->is_null()) {
        if (!it->is_string())
            return Error{"model_type must be a string (got " + describeJson(*it) + ")"};
        type = it->get<std::string>();
    }
    int pad = -1;
    if (auto it = root.find("pad_token_id"); it != root.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<long long>() < 0 ||
            it->get<long long>() > 1000000) {
            return Error{"pad_token_id must be an integer 0..1000000 (got " + describeJson(*it) +
                         ")"};
        }
        pad = int(it->get<long long>());
    }
    return positionOffsetFor(type, pad);
}

Result<PositionOffset> positionOffsetBeside(const std::string& safetensorsPath) {
    const std::filesystem::path config =
        std::filesystem::path(safetensorsPath).parent_path() / "config.json";
    std::error_code error;
    if (!std::filesystem::is_regular_file(config, error)) {
        return PositionOffset{0, "no config.json beside the file: row i taken as position i"};
    }
    // Regular files only, through InputFile; configs are a few KiB.
    auto text = readUserTextFile(config.string(), std::size_t(16) << 20, "a config.json");
    if (!text) return text.error();
    auto offset = positionOffsetFromConfig(*text);
    if (!offset) return safetensorsFileError(config.string(), offset.error().message);
    return offset;
}

Result<PositionTableFile> loadPositionTable(const std::string& path, std::string_view tensor) {
    PositionTableFile result;
    if (tensor.empty()) {
        auto found = findPositionTable(path);
        if (!found) return found.error();
        result.tensor = *found;
    } else {
        result.tensor = tensor;
    }
    auto table = readTensor(path, result.tensor);
    if (!table) return table.error();
    auto offset = positionOffsetBeside(path);
    if (!offset) return offset.error();
    result.offset = *offset;
    // Offset rows belong to position tables only: --tensor embed_tokens.weight of an OPT
    // checkpoint keeps every row.
    if (!isPositionTableName(result.tensor) && result.offset.rowsToDrop > 0) {
        result.offset = {0, "'" + shownTensorName(result.tensor) +
                                "' is not a position table: every row kept (" + result.offset.note +
                                " applies to position tables)"};
    }
    const std::size_t drop = std::size_t(result.offset.rowsToDrop);
    if (drop >= table->rows) {
        return safetensorsFileError(
            path, safetensorsTensorProblem(result.tensor, std::to_string(table->rows) +
                                                              " rows, but " + result.offset.note));
    }
    Matrix& full = table.value();
    if (drop > 0) {
        full.values.erase(full.values.begin(), full.values.begin() + drop * full.cols);
        full.rows -= drop;
    }
    result.table = std::move(full);
    return result;
}

}  // namespace poslab
