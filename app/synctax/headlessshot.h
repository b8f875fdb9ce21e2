#pragma once

#include "app/synctax/appoptions.h"

namespace synctax {

class DiffDialog;
class FollowView;
class MainWindow;

// A headless run's end (--screenshot, --export-charts). Once what it shows is ready (the Teach
// window's recorded step, the run, the followed job, the traces, else at once), the cell asked for
// is shown, --results-out saved and --compare made; a moment later the window shown is saved and
// exported, and the app quits with the exit code. Lives until the event loop returns.
class HeadlessShot {
public:
    HeadlessShot(MainWindow& window, const AppOptions& options, const AppInputs& inputs);

    // Waits as above; false when the run cannot start (said on stderr by the window).
    bool start();

private:
    void afterTeach();
    bool afterRun();
    void whenFollowed();
    void afterTraces();
    void followUpdated(FollowView* view, bool timeUp);
    void shoot();
    void save();

    MainWindow& m_window;
    const AppOptions& m_options;
    const AppInputs& m_inputs;
    int m_exitCode = 0;
    DiffDialog* m_diff = nullptr; // the comparison, shown in place of the window
    bool m_followShot = false;
};

} // namespace synctax
