// The Context view as a plug-in (state/encoding_registry.hpp): CoPE, DeBERTa, NoPE & iRoPE and
// randomized positions. Its state (state/contextual_state.hpp), session fields (below), commands
// (contextual_commands.cpp) and panel (contextual_panel.cpp) are registered here, once.
#include <memory>
#include <string>

#include "commands/commands.hpp"
#include "encodings/contextual_panel.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "state/contextual_state.hpp"
#include "state/encoding_registry.hpp"
#include "state/session_fields.hpp"

namespace poslab::encodings {
void registerContextualCommands(commands::CommandRegistry& registry);  // contextual_commands.cpp
}

namespace poslab::state {

// Session fields, read and written from this one list. no_rope_layers is not stored: the
// controls edit the interval (poslab export/render take --no-rope-layers).
template <class F, Is<state::ContextualViewState> V>
void visitFields(F& f, V& v) {
    f.name("tab", v.tab, state::kContextualTabNames);
    f.child("cope", [&](auto& g) {
        g.text("sentence", v.cope.sentence);
        g.name("gates", v.cope.gates, state::kCopeGateNames);
        g.integer("dModel", v.cope.dModel);
        g.integer("seed", v.cope.seed);
        g.integer("tableSeed", v.cope.tableSeed);
        g.integer("npos", v.cope.npos);
        g.boolean("divideGates", v.cope.divideGates);
    });
    f.child("deberta", [&](auto& g) {
        g.integer("seqLen", v.deberta.seqLen);
        g.integer("positionBuckets", v.deberta.positionBuckets);
        g.integer("maxRelativePositions", v.deberta.maxRelativePositions);
        g.integer("headDim", v.deberta.headDim);
        g.boolean("c2p", v.deberta.c2p);
        g.boolean("p2c", v.deberta.p2c);
        g.integer("seed", v.deberta.seed);
    });
    f.child("nope", [&](auto& g) {
        g.name("sections", v.nope.sections, state::kNopeSectionsNames);
        g.integer("seqLen", v.nope.seqLen);
        g.integer("maskLayer", v.nope.maskLayer);
        g.integer("numLayers", v.nope.irope.numLayers);
        g.integer("noRopeLayerInterval", v.nope.irope.noRopeLayerInterval);
        g.integer("attentionChunkSize", v.nope.irope.attentionChunkSize);
        g.number("floorScale", v.nope.temperature.floorScale);
        g.number("attnScale", v.nope.temperature.attnScale);
    });
    f.child("randomized", [&](auto& g) {
        g.integer("length", v.randomized.length);
        g.integer("maxLength", v.randomized.maxLength);
        g.integer("draws", v.randomized.draws);
        g.integer("seed", v.randomized.seed);
    });
}

}  // namespace poslab::state

namespace poslab::encodings {

namespace {

// The sentence is kept as typed (the figure says what is wrong with it); its length and every
// other range must hold.
Status validateContextualView(const state::ContextualViewState& v) {
    if (v.cope.sentence.size() > std::size_t(kMaxCopeSentenceBytes)) {
        return Error{"cope.sentence must be at most " + std::to_string(kMaxCopeSentenceBytes) +
                     " bytes"};
    }
    CopeSentenceParams cope = v.cope;
    cope.sentence = "a b";
    if (auto s = validate(cope); !s) return s;
    if (auto s = validate(v.deberta); !s) return s;
    if (auto s = requireIntInRange("deberta.seqLen", v.deberta.seqLen, 1, kMaxGuiSeqLen); !s)
        return s;
    if (auto s = validate(v.nope); !s) return s;
    return validate(v.randomized);
}

}  // namespace

POSLAB_REGISTER_ENCODING(contextual) {
    state::EncodingPlugin plugin;
    plugin.key = state::kContextualKey;
    plugin.after = "Compare";  // after the built-in views
    plugin.state = state::pluginStateType<state::ContextualViewState>(validateContextualView);
    plugin.registerCommands = registerContextualCommands;
    plugin.makePanel = [] {
        return std::unique_ptr<ui::Panel>(std::make_unique<ContextualPanel>());
    };
    return plugin;
}

}  // namespace poslab::encodings
