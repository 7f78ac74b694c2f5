#include "state/session_files.hpp"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "poslab/base/limits.hpp"
#include "poslab/io/hf_config.hpp"
#include "state/table_file.hpp"

namespace poslab::state {

Status rereadRopeConfig(RopeViewState& view) {
    auto config = loadHfConfig(view.configPath);
    if (!config) return config.error();
    view.configError.clear();
    view.configNotes = config->notes;
    view.configLayerType =
        config->ropeVariants.empty() ? "full_attention" : config->ropeVariants[0].layerType;
    view.configLoaded = "Re-read " + view.configPath +
                        (config->modelType.empty() ? "" : " (" + config->modelType + ")") +
                        " for the session";
    view.config = std::move(config).value();
    return success();
}

Result<LearnedTableRead> readLearnedTable(const std::string& path, const std::string& tensor) {
    if (path.empty()) return Error{"enter the path of a .npy or .safetensors file first"};
    LearnedTableRead read;
    read.path = path;
    if (isSafetensorsPath(path)) {
        auto names = tableTensorNames(path);
        if (!names) return names.error();
        read.choices = std::move(names).value();
    }
    // A remembered tensor the file does not have (another checkpoint): the one found by name.
    const bool known =
        std::find(read.choices.begin(), read.choices.end(), tensor) != read.choices.end();
    auto file = loadTableFile(path, known ? tensor : "");
    if (!file) return file.error();
    const std::size_t rows = file->table.rows;
    if (rows > std::size_t(kMaxSeqLen)) {
        return Error{path + ": " + std::to_string(rows) + " positions, more than PosLab shows (" +
                     std::to_string(kMaxSeqLen) + ")"};
    }
    read.file = std::move(file).value();
    return read;
}

void showLearnedTable(LearnedViewState& view, LearnedTableRead read) {
    view.loaded = std::make_shared<const Matrix>(std::move(read.file.table));
    view.loadedPath = std::move(read.path);
    view.loadedTensor = read.file.tensor;
    view.loadedNote = read.file.note;
    view.tensorChoices = std::move(read.choices);
    view.tensor = read.file.tensor;
    view.useLoaded = true;
    view.firstCurveDimension =
        std::clamp(view.firstCurveDimension, 0, std::max(0, int(view.loaded->cols) - 1));
}

Status loadLearnedTable(LearnedViewState& view, const std::string& path,
                        const std::string& tensor) {
    auto read = readLearnedTable(path, tensor);
    if (!read) return read.error();
    showLearnedTable(view, std::move(read).value());
    return success();
}

Warnings rereadSessionFiles(AppState& state) {
    Warnings warnings;
    RopeViewState& rope = state.rope;
    if (!rope.configPath.empty()) {
        if (Status s = rereadRopeConfig(rope); !s) {
            rope.config.reset();  // a config read before belongs to another file
            rope.configError = s.error().message;
            warnings.push_back("rope.configPath: " + s.error().message);
        }
    }
    LearnedViewState& learned = state.learned;
    if (!learned.npyPath.empty()) {
        if (Status s = loadLearnedTable(learned, learned.npyPath, learned.tensor); !s) {
            learned.loaded.reset();
            learned.useLoaded = false;
            warnings.push_back("learned.npyPath: " + s.error().message);
        }
    }
    return warnings;
}

}  // namespace poslab::state
