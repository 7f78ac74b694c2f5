#include "poslab/encodings/learned.hpp"

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

Status validate(const LearnedParams& params) {
    if (auto s = requireIntInRange("seq_len", params.seqLen, 1, kMaxSeqLen); !s) return s;
    if (auto s = requireIntInRange("d_model", params.dModel, 1, kMaxDModel); !s) return s;
    if (auto s = requireInRange("std", params.std, 0.0, 100.0); !s) return s;
    return checkMatrixSize(std::size_t(params.seqLen), std::size_t(params.dModel),
                           "the learned embedding table");
}

Result<Matrix> learnedTable(const LearnedParams& params) {
    if (auto status = validate(params); !status) return status.error();
    Matrix table(std::size_t(params.seqLen), std::size_t(params.dModel));
    fillScaledNormals(table.values.data(), table.values.size(), params.seed, params.std);
    return table;
}

}  // namespace poslab
