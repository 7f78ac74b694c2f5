// parameter_table.hpp — every slider's descriptor (state/ranges.hpp, core's next to its struct)
// listed once with the session field it drives, so one table-driven test
// (tests/app/parameter_table_test.cpp) can check that the slider, the session reader and the
// state's default agree on each: nothing else has to remember a range.
#pragma once

#include <span>
#include <string_view>
#include <variant>

#include "poslab/base/parameter.hpp"
#include "state/app_state.hpp"

namespace poslab::state {

// How a slider's descriptor and the session reader agree.
enum class SessionAgreement {
    Exact,       // the session checks the descriptor itself: the same range, and its default
    Within,      // core's validate() accepts more (a config's rope_theta, a --seq-len export): the
                 // session accepts every value the slider can reach
    Bounded,     // another setting bounds it (a head below the head count, a query inside the
                 // grid, T5's L x L matrix under the memory cap): the default is checked
    SliderOnly,  // not saved in sessions (the Usage tab) or saved whole (64-bit seeds)
};

struct ParameterUse {
    std::variant<const IntParameter*, const RealParameter*> parameter;
    std::string_view session;          // JSON pointer of the field in a session: "/rope/speed"
    double (*value)(const AppState&);  // the AppState field the slider edits
    SessionAgreement agreement = SessionAgreement::Exact;
};

// Every slider descriptor of every view, the plug-ins' included (ALiBi, Context).
std::span<const ParameterUse> viewParameters();

}  // namespace poslab::state
