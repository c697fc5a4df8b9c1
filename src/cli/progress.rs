//! Progress bars on stderr, shown only when stderr is a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar counting `len` steps (tasks, boards...), hidden when stderr is not a terminal, so that
/// piped output and tests stay clean.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!(
        "{{elapsed_precise}} [{{bar:40}}] {{human_pos}}/{{human_len}} {what} {{rate}} ETA {{eta}}"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("the template is a constant")
            // indicatif's own `per_sec` prints four decimals: "1234.5678/s".
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1}/s", state.per_sec());
                },
            )
            .progress_chars("=> "),
    );
    bar
}
