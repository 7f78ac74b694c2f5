#include "panels/rope_usage_tab.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "poslab/base/background.hpp"
#include "poslab/base/format.hpp"
#include "poslab/io/safetensors_index.hpp"
#include "state/ranges.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

constexpr std::pair<state::UsagePairing, const char*> kPairings[] = {
    {state::UsagePairing::FromConfig, "from config"},
    {state::UsagePairing::Half, "half (i, i + d/2)"},
    {state::UsagePairing::Interleaved, "interleaved (2i, 2i+1)"}};

std::string megabytes(std::uint64_t bytes) {
    return formatValue(double(bytes) / (1 << 20), 4) + " MiB";
}

}  // namespace

bool isCheckpointPath(const std::string& path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) return true;
    // .safetensors reach the RoPE view only as checkpoints (open_file.cpp routes tables to the
    // Learned view); config.json goes to the config reader.
    return isSafetensorsIndexPath(path) || isSafetensorsFilePath(path);
}

RopeUsageTab::~RopeUsageTab() {
    cancel();
}

void RopeUsageTab::cancel() {
    if (!job_) return;
    job_->cancelled->store(true);
    if (job_->result.valid()) waitForJob(job_->result);
    job_.reset();
}

void RopeUsageTab::open(state::RopeUsageState& state, const std::string& path,
                        ui::FrameContext& context) {
    cancel();
    state.checkpointPath = path;
    error_.clear();
    Job job;
    job.path = path;
    job.cancelled = std::make_shared<std::atomic<bool>>(false);
    job.done = std::make_shared<std::atomic<std::uint64_t>>(0);
    job.total = std::make_shared<std::atomic<std::uint64_t>>(0);
    AttentionOverrides overrides;
    if (state.pairing == state::UsagePairing::Half) overrides.pairing = RopePairing::Half;
    if (state.pairing == state::UsagePairing::Interleaved)
        overrides.pairing = RopePairing::Interleaved;
    job.result = runInBackground(
        [path, overrides, cancelled = job.cancelled, done = job.done, total = job.total] {
            return loadRopeUsage(path, overrides, [&](std::uint64_t d, std::uint64_t t) {
                done->store(d);
                total->store(t);
                return !cancelled->load();
            });
        });
    job_ = std::move(job);
    if (context.statusMessage) *context.statusMessage = "Reading the q and k rows of " + path + "…";
}

void RopeUsageTab::collect(ui::FrameContext& context) {
    if (!job_) return;
    if (job_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        context.animating = true;  // keep frames coming for the progress bar
        context.waiting = true;
        return;
    }
    auto result = job_->result.get();
    const std::string path = job_->path;
    job_.reset();
    if (result) {
        data_ = std::make_shared<const RopeUsageData>(std::move(result).value());
        readPath_ = path;
        error_.clear();
        failedPath_.clear();
        if (context.statusMessage) {
            *context.statusMessage = "Read " + data_->model + " from " + path;
        }
    } else {
        error_ = result.error().message == "cancelled" ? "Cancelled: " + path + " was not read"
                                                       : result.error().message;
        failedPath_ = path;
        if (context.statusMessage) *context.statusMessage = error_;
    }
}

void RopeUsageTab::draw(state::RopeUsageState& state, ui::FrameContext& context) {
    collect(context);
    // ---- The checkpoint
    // The path field leaves its button room in the row (at 480x320 the button was past the
    // window's edge); the button takes a row of its own only below 8 em of field.
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* openLabel = "Open checkpoint";
    const float button = ImGui::CalcTextSize(openLabel).x + 2 * style.FramePadding.x;
    const float room = ImGui::GetContentRegionAvail().x - button - style.ItemSpacing.x;
    const bool buttonBeside = room >= ImGui::GetFontSize() * 8;
    ImGui::SetNextItemWidth(buttonBeside ? std::min(ImGui::GetFontSize() * 22, room)
                                         : ImGui::GetContentRegionAvail().x);
    bool openNow = ui::inputString("##checkpoint", &state.checkpointPath,
                                   ImGuiInputTextFlags_EnterReturnsTrue);
    ui::tooltipForLastItem(
        "A checkpoint folder holding config.json and model.safetensors, or a sharded "
        "model.safetensors.index.json with its shards (BF16, F16 or F32). Only the q and k "
        "projection rows are read, in 256 KiB blocks. You can also drop the folder on the window "
        "or start PosLab with it: poslab DIR.");
    if (buttonBeside) ImGui::SameLine();
    openNow |= ImGui::Button(openLabel);
    // The pairing combo as wide as its widest choice, its label beside it (a box narrower put
    // the label on a row of its own, which the figure below lost at 480x320); it wraps to its
    // own line when the row has no room for it (a projector).
    float widest = 0;
    for (const auto& [value, name] : kPairings)
        widest = std::max(widest, ImGui::CalcTextSize(name).x);
    const float comboWidth = widest + 2 * style.FramePadding.x + ImGui::GetFrameHeight();
    const float comboRow = comboWidth + style.ItemInnerSpacing.x + ImGui::CalcTextSize("pairing").x;
    const float rowRight = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (rowRight - ImGui::GetItemRectMax().x > comboRow + style.ItemSpacing.x) ImGui::SameLine();
    ImGui::SetNextItemWidth(comboWidth);
    state::UsagePairing pairing = state.pairing;
    const state::UsagePairing values[] = {kPairings[0].first, kPairings[1].first,
                                          kPairings[2].first};
    ui::comboEnum(
        "pairing", &state.pairing, values,
        [](state::UsagePairing value) {
            for (const auto& [choice, name] : kPairings) {
                if (choice == value) return name;
            }
            return "from config";
        },
        "Which rows of a head form a rotary pair. HF's Llama-family checkpoints are stored for "
        "rotate_half (rows i and i + d/2); GPT-J-style ones interleave (2i, 2i+1). 'from config' "
        "follows model_type and refuses a model whose layout it does not know.");
    if (state.pairing != pairing && !state.checkpointPath.empty()) openNow = true;
    if (openNow && !state.checkpointPath.empty()) open(state, state.checkpointPath, context);

    // ---- Progress, or the figure's own controls
    if (job_) {
        const std::uint64_t done = job_->done->load(), total = job_->total->load();
        const float fraction = total > 0 ? float(double(done) / double(total)) : 0.0f;
        ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * 16, 0));
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) job_->cancelled->store(true);
        if (context.statusMessage) {
            *context.statusMessage = "Reading q and k rows of " + job_->path + ": " +
                                     std::to_string(int(fraction * 100)) + "% (" + megabytes(done) +
                                     " of " + megabytes(total) + ")";
        }
    } else if (data_) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
        state.figure.layer = std::clamp(state.figure.layer, 0, data_->usage.layers - 1);
        ui::sliderInt(state::kUsageLayer, &state.figure.layer,
                      ui::SliderBounds{0, data_->usage.layers - 1},
                      "The layer drawn head by head in the second panel.");
        // Beside the layer where the row holds it and its label ("p-RoPE p"), else below.
        const float sliderRight = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (sliderRight - ImGui::GetItemRectMax().x > ImGui::GetFontSize() * 16) ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
        ui::sliderDouble(
            state::kUsageKeepFraction, &state.figure.keepFraction,
            "p-RoPE (Barbero et al. 2024) keeps the fastest floor(p x pairs) pairs and "
            "drops the slow rest; the figure marks the cut and the share of usage kept.");
        state.figure.keepFraction =
            std::clamp(state.figure.keepFraction, state::kUsageKeepFraction.low,
                       state::kUsageKeepFraction.high);
    }
    if (!error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        ImGui::TextWrapped("%s", error_.c_str());
        ImGui::PopStyleColor();
    }

    // ---- The figure
    if (data_) {
        const ImVec2 room = ImGui::GetContentRegionAvail();
        ui::panelSelector(
            ropeUsagePanels({0, 0, room.x, room.y}, *data_, context.theme, state.selectedPanel),
            &state.selectedPanel);
    }
    const ui::Canvas canvas = ui::beginCanvas("usage");
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    const Box area{0, 0, canvas.box.width, canvas.box.height};
    if (data_) {
        drawFigure(figure, area, state, context.theme, state.selectedPanel);
        if (job_) {
            figure.add(makeText({canvas.box.width - 12, 8}, "reading…", context.theme.fontSize,
                                context.theme.accent, HorizontalAlign::Right));
        }
    } else {
        drawNote(figure, area,
                 job_ ? "reading the q and k projections…"
                      : "Open a checkpoint folder (config.json + model.safetensors or a sharded "
                        "index) to see which rotary frequencies its weights use",
                 context.theme);
    }
    ui::drawCanvasFigure(canvas, figure, context);
}

void RopeUsageTab::drawFigure(Figure& figure, Box area, const state::RopeUsageState& state,
                              const Theme& theme, int selected) const {
    if (!data_) {
        drawNote(figure, area, "no checkpoint read yet (RoPE view, Usage tab)", theme);
        return;
    }
    RopeUsageViewParams params = state.figure;
    params.layer = std::clamp(params.layer, 0, data_->usage.layers - 1);
    params.keepFraction = std::clamp(params.keepFraction, 0.05, 1.0);
    drawRopeUsage(figure, area, *data_, params, theme, selected);
}

}  // namespace poslab::panels
