// bias_state.hpp — what the user chose in the ALiBi, T5 and Learned views (T5 and Learned are
// members of AppState; ALiBi's is held by AppState::plugins).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/views/trajectory_3d.hpp"
#include "state/enum_names.hpp"

namespace poslab::state {

// ALiBi is a plug-in (app/encodings/alibi_encoding.cpp): its state is
// AppState::plugins.get<AlibiViewState>(kAlibiKey), its session section "alibi".
inline constexpr const char* kAlibiKey = "alibi";
struct AlibiViewState {
    int heads = 8;               // 1..128: sets every slope (fairseq get_slopes)
    int seqLen = 32;             // rows and columns of each head's bias matrix
    bool symmetric = false;      // encoder form -m|i - j| (no mask) instead of causal
    int enlargedHead = 0;        // the head drawn large (click a head in the grid)
    int queryIndex = 31;         // the row the attention preview softmaxes; clamped to seqLen - 1
    int previewKeys = 0;         // keys in the preview ending at the query; 0: all
    bool randomContent = false;  // add seeded random content logits before the softmax
    int contentSeed = 0;
    double contentScale = 1.0;  // standard deviation of the content logits
    ColormapId colormap = ColormapId::Viridis;
    friend bool operator==(const AlibiViewState&,
                           const AlibiViewState&) = default;  // member-wise: caches key on it
};

struct T5ViewState {
    int seqLen = 160;
    int numBuckets = 32;               // relative_attention_num_buckets (T5's value)
    int maxDistance = 128;             // relative_attention_max_distance (T5's value)
    bool bidirectional = true;         // encoder (true) or decoder self-attention
    int biasSeed = 0;                  // seeds the per-bucket values until the user edits one
    std::vector<double> bucketBiases;  // edited per-bucket values; empty or stale: seeded
    friend bool operator==(const T5ViewState&,
                           const T5ViewState&) = default;  // member-wise: caches key on it
};

enum class LearnedTab { Table, Structure };  // the Learned view's figure tabs
inline constexpr EnumNames<LearnedTab, 2> kLearnedTabNames{
    "tab", {{{LearnedTab::Table, "table"}, {LearnedTab::Structure, "structure"}}}};

// Whose structure the Structure tab analyses: the table shown (seeded or loaded), or a
// sinusoidal table of the same size, to compare against.
enum class StructureSource { Shown, Sinusoidal };
inline constexpr EnumNames<StructureSource, 2> kStructureSourceNames{
    "structure table",
    {{{StructureSource::Shown, "shown"}, {StructureSource::Sinusoidal, "sinusoidal"}}}};

struct LearnedViewState {
    // The generated table (nn.Embedding at initialisation).
    int seqLen = 512;  // table length: the positions that have a vector
    int dModel = 64;
    int seed = 0;
    double std = 0.02;  // GPT-2 and BERT initialise with 0.02
    // A loaded table replaces the generated one while useLoaded is set.
    std::string npyPath;       // the path field: a .npy or a .safetensors file
    std::string tensor;        // .safetensors: the tensor to read; "": the position table found
    std::string loadedPath;    // the file `loaded` came from
    std::string loadedTensor;  // the tensor it came from ("" for .npy)
    std::string loadedNote;    // .safetensors: the offset rows dropped, or why none
    std::vector<std::string> tensorChoices;  // the loaded file's float 1-D/2-D tensors
    std::shared_ptr<const Matrix> loaded;
    bool useLoaded = false;
    // Display.
    int positionsShown = 640;  // may exceed the table: the rest is undefined
    int firstCurveDimension = 0;
    int curveCount = 4;
    ColormapId colormap = ColormapId::BlueWhiteRed;
    // The Structure tab (PCA and spectrum of the table).
    LearnedTab tab = LearnedTab::Table;
    StructureSource structureSource = StructureSource::Shown;
    int structureComponents = 12;  // explained-variance bars, 1..64
    TrajectoryStyle structureTrajectory = TrajectoryStyle::Rotatable;  // PC1-PC3 in 3-D
    double structureYaw = 30;    // degrees, kept in -180..180 (dragging, auto-rotate)
    double structurePitch = 20;  // degrees, -90..90
    bool autoRotate = false;     // turn the 3-D trajectory with the clock (lectures)
    friend bool operator==(const LearnedViewState&,
                           const LearnedViewState&) = default;  // member-wise: caches key on it
};

}  // namespace poslab::state
