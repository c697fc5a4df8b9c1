//! Ctrl-C and SIGTERM: the first asks the count to stop (it ends within a second or two, every
//! finished task kept in the checkpoint); a second one ends the process at once.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Exit status of a process ended by a second signal: 128 + SIGINT, as shells report it.
const EXIT_AT_ONCE: i32 = 130;

/// The flag the first Ctrl-C or SIGTERM sets; the handler is installed on first use.
pub fn stop_flag() -> &'static AtomicBool {
    static STOP: OnceLock<&'static AtomicBool> = OnceLock::new();
    STOP.get_or_init(|| {
        static FLAG: AtomicBool = AtomicBool::new(false);
        static SEEN: AtomicUsize = AtomicUsize::new(0);
        // Without a handler a signal still ends the process, only without saving; a count
        // must not fail because a host program already installed one.
        let _ = ctrlc::set_handler(|| {
            if SEEN.fetch_add(1, Ordering::SeqCst) == 0 {
                FLAG.store(true, Ordering::SeqCst);
                // Said alike with or without a checkpoint: the count's own error then says
                // what was saved.
                eprintln!(
                    "stopping: ending the work under way (press Ctrl-C again to quit at once)"
                );
            } else {
                std::process::exit(EXIT_AT_ONCE);
            }
        });
        &FLAG
    })
}
