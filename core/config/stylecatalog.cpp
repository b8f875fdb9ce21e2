#include "core/config/stylecatalog.h"

#include "core/config/experimentconfig.h"

#include <algorithm>

namespace synctax {

const std::vector<StyleInfo>& styleCatalog()
{
    static const std::vector<StyleInfo> catalog {
        { "none", "nothing per step; one synchronize at the end of each block (the baseline)", 0 },
        { "item", "loss.item() every step", 0 },
        { "item_every_n", "loss.item() every n steps", 10 },
        { "gpu_accumulate", "loss_sum += loss.detach() every step; one .item() per block", 0 },
        { "progress_bar", "tqdm-like bar updated every step, redrawn at most every 0.1 s; no sync", 0 },
        { "progress_bar_postfix", "bar plus set_postfix(loss=loss.item()) every step, forcing a redraw", 0 },
        { "progress_bar_postfix_every_n", "bar every step; postfix from .item() every n steps", 50 },
        { "print_every_step", "print the loss (.item()) to the sink every step", 0 },
        { "writer_flush_every_step", "append the loss scalar to a log file and flush it every step", 0 },
        { "metrics_item_each", "4 metrics (loss, accuracy, confidence, logit norm), each .item()'d", 0 },
        { "metrics_stacked", "the same 4 metrics stacked and copied to the host in one transfer", 0 },
        { "deferred_async", "non-blocking copy of the loss into pinned memory, read when ready", 0 },
    };
    return catalog;
}

std::optional<StyleInfo> findStyle(const std::string& name)
{
    const auto& catalog = styleCatalog();
    auto it = std::find_if(catalog.begin(), catalog.end(), [&](const StyleInfo& s) { return s.name == name; });
    if (it == catalog.end())
        return std::nullopt;
    return *it;
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
    const std::string& s = spec.name;
    if (s == "item" || s == "progress_bar_postfix" || s == "print_every_step" || s == "writer_flush_every_step"
        || s == "metrics_item_each" || s == "metrics_stacked")
        return true;
    if (s == "item_every_n" || s == "progress_bar_postfix_every_n")
        return spec.n > 0 && (step + 1) % spec.n == 0;
    if (s == "gpu_accumulate")
        return step + 1 == stepsPerBlock;
    return false;
}

} // namespace synctax
