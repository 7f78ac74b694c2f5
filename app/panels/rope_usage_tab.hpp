// rope_usage_tab.hpp — the RoPE view's Usage tab: which rotary frequencies a checkpoint's weights
// use (views/rope_usage_figures.hpp). A checkpoint folder (or its index, or a .safetensors file)
// is opened from the path field, dropped on the window, or named on the command line
// (`poslab DIR`). Its q and k rows are read on a worker thread, with progress in the status line
// and a Cancel button; the figure stays responsive meanwhile and the last result stays on screen
// until the new one is complete.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "poslab/views/rope_usage_figures.hpp"
#include "state/rope_usage_state.hpp"
#include "ui/frame_context.hpp"

namespace poslab::panels {

// A path the Usage tab opens rather than the config reader: a folder, a
// *.safetensors.index.json, or a .safetensors file with config.json beside it.
bool isCheckpointPath(const std::string& path);

class RopeUsageTab {
  public:
    RopeUsageTab() = default;
    RopeUsageTab(const RopeUsageTab&) = delete;
    RopeUsageTab& operator=(const RopeUsageTab&) = delete;
    ~RopeUsageTab();  // cancels a read in progress and waits for it

    void draw(state::RopeUsageState& state,
              ui::FrameContext& context);  // controls, then the figure
    void open(state::RopeUsageState& state, const std::string& path, ui::FrameContext& context);
    void drawFigure(Figure& figure, Box area, const state::RopeUsageState& state,
                    const Theme& theme,
                    int selected) const;  // for File > Export too
    const RopeUsageData* data() const { return data_ ? data_.get() : nullptr; }
    // Takes a finished read's result (draw does, each frame); while one runs, marks the frame
    // animating and waiting.
    void collect(ui::FrameContext& context);
    bool reading() const { return job_.has_value(); }  // a read started and not yet collected
    // What became of reading `path`: whether the measure held is its, whole, and why its last
    // read failed ("" if it did not, or is still running). --check-layout asks, rather than
    // reading the status line, which the next message replaces.
    bool holds(const std::string& path) const { return data_ && readPath_ == path; }
    std::string problemWith(const std::string& path) const {
        return !job_ && failedPath_ == path ? error_ : "";
    }

  private:
    void cancel();

    struct Job {
        std::string path;
        std::future<Result<RopeUsageData>> result;
        std::shared_ptr<std::atomic<bool>> cancelled;
        std::shared_ptr<std::atomic<std::uint64_t>> done, total;
    };
    std::optional<Job> job_;
    std::shared_ptr<const RopeUsageData> data_;  // the last measure read
    std::string error_;                          // why the last read failed
    std::string readPath_, failedPath_;          // whose read gave data_, whose gave error_
};

}  // namespace poslab::panels
