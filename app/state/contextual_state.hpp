// contextual_state.hpp — what the user chose in the Context view (CoPE, DeBERTa, NoPE & iRoPE,
// randomized positions), a plug-in state (app/encodings/contextual_encoding.cpp) under the key
// kContextualKey in AppState::plugins and in sessions.
#pragma once

#include "poslab/views/contextual_figures.hpp"
#include "state/enum_names.hpp"

namespace poslab::state {

inline constexpr const char* kContextualKey = "contextual";  // session section, lessons key

enum class ContextualTab { Cope, Deberta, Nope, Randomized };  // the view's figure tabs
inline constexpr EnumNames<ContextualTab, 4> kContextualTabNames{
    "tab",
    {{{ContextualTab::Cope, "cope"},
      {ContextualTab::Deberta, "deberta"},
      {ContextualTab::Nope, "nope"},
      {ContextualTab::Randomized, "randomized"}}}};
inline constexpr EnumNames<CopeGateSource, 4> kCopeGateNames{
    "gates",
    {{{CopeGateSource::Seeded, "seeded"},
      {CopeGateSource::Tokens, "tokens"},
      {CopeGateSource::Words, "words"},
      {CopeGateSource::Sentences, "sentences"}}}};

inline constexpr EnumNames<NopeSections, 3> kNopeSectionsNames{
    "sections",
    {{{NopeSections::All, "all"}, {NopeSections::Nope, "nope"}, {NopeSections::Irope, "irope"}}}};

struct ContextualViewState {
    ContextualTab tab = ContextualTab::Cope;
    CopeSentenceParams cope;
    DebertaParams deberta;
    NopeFigureOptions nope;
    RandomizedPositionsParams randomized;
    friend bool operator==(const ContextualViewState&,
                           const ContextualViewState&) = default;  // member-wise: caches key on it
};

}  // namespace poslab::state
