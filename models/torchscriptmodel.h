#pragma once

#include "models/modelfactory.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace synctax {

// A module saved by PyTorch (torch.jit.script or torch.jit.trace, then .save), its inputs and what
// its output is trained against.
struct TorchScriptModelSpec {
    std::string path;
    std::vector<SampleInput> inputs;
    int64_t classes = 0; // cross-entropy over [batch, classes]; 0: mean squared error on targetShape
    std::vector<int64_t> targetShape;
};

// What is wrong with a TorchScript model, and which part of its entry it is about.
class TorchScriptError : public std::runtime_error {
public:
    enum class Part { File, Inputs, Target };
    TorchScriptError(Part part, const std::string& message)
        : std::runtime_error(message)
        , m_part(part)
    {
    }
    Part part() const { return m_part; }

private:
    Part m_part;
};

// Loads the module on the CPU, in training mode, run op by op as a Python loop runs it (TorchScript's
// graph optimisations off, so no fused kernels stand in for the ops a user's loop launches). Throws
// TorchScriptError: not a TorchScript file, saved by a newer PyTorch, no trainable parameters.
BuiltModel loadTorchScriptModel(const TorchScriptModelSpec& spec);

// Every check before a run: loads the module and runs one forward and backward on a batch of two
// samples on the CPU. Throws TorchScriptError: the above, or the forward does not take the declared
// inputs, or its output does not fit the target.
void checkTorchScriptModel(const TorchScriptModelSpec& spec);

// The LibTorch this program runs on, as "1.13.0"; and the file format versions it reads.
std::string libTorchVersion();
uint64_t newestFileFormatRead();

} // namespace synctax
