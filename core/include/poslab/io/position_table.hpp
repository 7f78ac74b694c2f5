// position_table.hpp — a model's learned position table out of a .safetensors checkpoint: which
// tensor it is (by the names models give it) and which leading rows are not positions (OPT, BART,
// RoBERTa), read from the config.json beside the file. The reading itself is io/safetensors.hpp's.
//
// Usage:
//   auto name = findPositionTable(path);             // "transformer.wpe.weight"
//   auto offset = positionOffsetBeside(path);        // OPT: drop 2 rows, with a note saying why
//   auto table = loadPositionTable(path);            // both, and the rows dropped
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/io/safetensors.hpp"

namespace poslab {

// ---- Choosing the position table
// Name endings of learned position tables, at a "." boundary: wpe.weight (GPT-2, GPT-Neo),
// position_embeddings.weight (BERT, RoBERTa, ELECTRA), embed_positions.weight (OPT, BART,
// Whisper), position_embedding.weight (CLIP), positional_embedding (OpenAI CLIP), ...
const std::vector<std::string>& positionTableNames();
bool isPositionTableName(std::string_view tensor);
// The first tensor (in header order) whose name ends in a known position-table name; an Error
// listing a few tensor names when none does.
Result<std::string> findPositionTable(const SafetensorsHeader& header, std::string_view name);
Result<std::string> findPositionTable(const std::string& path);

// ---- Rows that are not positions
// Some models' tables start with rows no position uses: OPT, BART and BioGPT add 2 to every
// position id (row p + 2 holds position p); RoBERTa-style models count positions from
// pad_token_id + 1. rowsToDrop leading rows are removed to get row i = position i.
struct PositionOffset {
    int rowsToDrop = 0;
    std::string note;  // one line: "OPT stores position p in row p + 2: the first 2 rows dropped"
};
PositionOffset positionOffsetFor(std::string_view modelType, int padTokenId);  // -1: absent
Result<PositionOffset> positionOffsetFromConfig(std::string_view configJson);
// config.json in the file's directory; no config there gives {0, "no config.json beside ..."}.
Result<PositionOffset> positionOffsetBeside(const std::string& safetensorsPath);

// ---- All of it: the table (named, or found), its offset rows dropped
struct PositionTableFile {
    Matrix table;        // rows = positions from 0, columns = dimensions
    std::string tensor;  // the tensor's name
    PositionOffset offset;
};
Result<PositionTableFile> loadPositionTable(const std::string& path, std::string_view tensor = "");

}  // namespace poslab
