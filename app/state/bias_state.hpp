// bias_state.hpp — what the user chose in the ALiBi, T5 and Learned views (members of AppState).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/figure/colormap.hpp"

namespace poslab::ui {

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
    friend bool operator==(const AlibiViewState&, const AlibiViewState&) = default;  // member-wise: caches key on it
};

struct T5ViewState {
    int seqLen = 160;
    int numBuckets = 32;               // relative_attention_num_buckets (T5's value)
    int maxDistance = 128;             // relative_attention_max_distance (T5's value)
    bool bidirectional = true;         // encoder (true) or decoder self-attention
    int biasSeed = 0;                  // seeds the per-bucket values until the user edits one
    std::vector<double> bucketBiases;  // edited per-bucket values; empty or stale: seeded
    friend bool operator==(const T5ViewState&, const T5ViewState&) = default;  // member-wise: caches key on it
};

struct LearnedViewState {
    // The generated table (nn.Embedding at initialisation).
    int seqLen = 512;  // table length: the positions that have a vector
    int dModel = 64;
    int seed = 0;
    double std = 0.02;  // GPT-2 and BERT initialise with 0.02
    // A loaded table replaces the generated one while useLoaded is set.
    std::string npyPath;     // the path field
    std::string loadedPath;  // the file `loaded` came from
    std::shared_ptr<const Matrix> loaded;
    bool useLoaded = false;
    // Display.
    int positionsShown = 640;  // may exceed the table: the rest is undefined
    int firstCurveDimension = 0;
    int curveCount = 4;
    ColormapId colormap = ColormapId::BlueWhiteRed;
    friend bool operator==(const LearnedViewState&, const LearnedViewState&) = default;  // member-wise: caches key on it
};

}  // namespace poslab::ui
