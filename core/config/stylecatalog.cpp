#include "core/config/stylecatalog.h"

#include "core/config/experimentconfig.h"

#include <algorithm>

namespace synctax {

// The one description of every logging style. Adding a style is a row here (and a behaviour in
// core/styles/ when no existing one fits); the config, the engine, the simulator and the UI read it.
const std::vector<StyleInfo>& styleCatalog()
{
    using C = ReadCadence;
    using B = StyleBehaviour;
    using H = HostWork;
    static const std::vector<StyleInfo> catalog {
        { "none", "nothing per step; one synchronize at the end of each block (the baseline)", 0, C::Never, B::Nothing,
            { 0, 0, H::None } },
        { "item", "loss.item() every step", 0, C::EveryStep, B::ReadLoss, { 1, 0, H::None } },
        { "item_every_n", "loss.item() every n steps", 10, C::EveryN, B::ReadLoss, { 1, 0, H::None } },
        { "gpu_accumulate", "loss_sum += loss.detach() every step; one .item() per block", 0, C::BlockEnd,
            B::AccumulateLoss, { 1, 1, H::None } },
        { "progress_bar", "tqdm-like bar updated every step, redrawn at most every 0.1 s; no sync", 0, C::Never,
            B::ProgressBar, { 1, 0, H::BarUpdate } },
        { "progress_bar_postfix", "bar plus set_postfix(loss=loss.item()) every step, forcing a redraw", 0,
            C::EveryStep, B::ProgressBar, { 1, 0, H::Redraw } },
        { "progress_bar_postfix_every_n", "bar every step; postfix from .item() every n steps", 50, C::EveryN,
            B::ProgressBar, { 1, 0, H::BarUpdate } },
        { "print_every_step", "print the loss (.item()) to the sink every step", 0, C::EveryStep, B::PrintLoss,
            { 1, 0, H::Redraw } },
        { "writer_flush_every_step", "append the loss scalar to a log file and flush it every step", 0, C::EveryStep,
            B::WriteScalar, { 1, 0, H::Redraw } },
        { "metrics_item_each", "4 metrics (loss, accuracy, confidence, logit norm), each .item()'d", 0, C::EveryStep,
            B::ReadMetricsEach, { 4, 6, H::None } },
        { "metrics_stacked", "the same 4 metrics stacked and copied to the host in one transfer", 0, C::EveryStep,
            B::ReadMetricsStacked, { 1, 7, H::None } },
        { "deferred_async", "non-blocking copy of the loss into pinned memory, read when ready", 0, C::Never,
            B::DeferredCopy, { 0, 1, H::None } },
    };
    return catalog;
}

const StyleInfo* findStyle(const std::string& name)
{
    const auto& catalog = styleCatalog();
    auto it = std::find_if(catalog.begin(), catalog.end(), [&](const StyleInfo& s) { return s.name == name; });
    return it == catalog.end() ? nullptr : &*it;
}

std::vector<std::string> styleNames()
{
    std::vector<std::string> names;
    for (const auto& s : styleCatalog())
        names.push_back(s.name);
    return names;
}

bool syncsAfterStep(const StyleSpec& spec, int64_t step, int64_t stepsPerBlock)
{
    const StyleInfo* style = findStyle(spec.name);
    return style && syncsAfterStep(*style, spec.n, step, stepsPerBlock);
}

bool syncsAfterStep(const StyleInfo& style, int64_t n, int64_t step, int64_t stepsPerBlock)
{
    switch (style.cadence) {
    case ReadCadence::Never:
        return false;
    case ReadCadence::EveryStep:
        return true;
    case ReadCadence::EveryN:
        return n > 0 && (step + 1) % n == 0;
    case ReadCadence::BlockEnd:
        return step + 1 == stepsPerBlock;
    }
    return false;
}

double hostWorkCostUs(HostWork work, double formatUs, double redrawUs)
{
    switch (work) {
    case HostWork::None:
        break;
    case HostWork::BarUpdate:
        return formatUs;
    case HostWork::Redraw:
        return redrawUs;
    }
    return 0;
}

} // namespace synctax
