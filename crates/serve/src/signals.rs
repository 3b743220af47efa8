//! Process signals: shutdown on SIGINT/SIGTERM, reload on SIGHUP or a timer.

use std::{sync::Arc, time::Duration};

use tokio::time::{Instant, MissedTickBehavior};

/// Resolves when the process receives SIGINT or SIGTERM (Ctrl-C on other platforms).
///
/// If no handler can be installed at all, it never resolves; a process that cannot be
/// told to stop gracefully can still be killed.
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let terminate = async {
            match signal(SignalKind::terminate()) {
                Ok(mut stream) => {
                    stream.recv().await;
                }
                Err(_) => std::future::pending().await,
            }
        };
        tokio::select! {
            () = interrupt() => {}
            () = terminate => {}
        }
    }
    #[cfg(not(unix))]
    interrupt().await;
}

/// Resolves on Ctrl-C (SIGINT), or never if it cannot be watched.
async fn interrupt() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Calls `reload` each time SIGHUP arrives and, if `poll` is `Some`, every `poll`
/// interval as well; each call's one-line description is passed to `report`.
///
/// `reload` runs on a blocking thread (`spawn_blocking`), one call at a time. If it
/// panics, `report` gets a line saying so and the loop goes on. This runs forever: the
/// caller spawns it and aborts it on shutdown. Without SIGHUP support (non-unix, or the
/// handler cannot be installed) only the timer triggers reloads.
pub async fn reload_loop(
    reload: impl Fn() -> String + Send + Sync + 'static,
    poll: Option<Duration>,
    report: impl Fn(String) + Send + Sync + 'static,
) {
    let reload = Arc::new(reload);
    let mut hangups = Hangups::new();
    let mut timer = poll.map(|period| {
        let mut timer = tokio::time::interval_at(Instant::now() + period, period);
        timer.set_missed_tick_behavior(MissedTickBehavior::Delay);
        timer
    });
    loop {
        let tick = async {
            match &mut timer {
                Some(timer) => {
                    timer.tick().await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = hangups.recv() => {}
            () = tick => {}
        }
        let reload = Arc::clone(&reload);
        let line = match tokio::task::spawn_blocking(move || reload()).await {
            Ok(line) => line,
            Err(err) if err.is_panic() => "reload panicked".to_owned(),
            Err(err) => format!("reload failed: {err}"),
        };
        report(line);
    }
}

/// SIGHUP deliveries, or nothing where they cannot be watched.
struct Hangups {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Hangups {
    fn new() -> Hangups {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Hangups { signal: signal(SignalKind::hangup()).ok() }
        }
        #[cfg(not(unix))]
        Hangups {}
    }

    /// Resolves on the next SIGHUP; never if there will be none.
    async fn recv(&mut self) {
        #[cfg(unix)]
        if let Some(signal) = &mut self.signal {
            if signal.recv().await.is_some() {
                return;
            }
            self.signal = None;
        }
        std::future::pending().await
    }
}
