//! Process signals: shutdown on SIGINT/SIGTERM; the reload loop of the live data, on
//! SIGHUP or a timer.

use std::{sync::Arc, time::Duration};

use tokio::time::{Instant, MissedTickBehavior};

/// Resolves when the process receives SIGINT or SIGTERM (Ctrl-C on other platforms).
///
/// The handlers are installed by this call, not when the future is first polled: a
/// server polls its shutdown future only between accepts, so a SIGTERM sent as soon as it
/// has answered a request could otherwise still take the default action (exit at once,
/// without draining). If no handler can be installed at all, it never resolves; a process
/// that cannot be told to stop gracefully can still be killed.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let terminate = signal(SignalKind::terminate()).ok();
        let interrupt = signal(SignalKind::interrupt()).ok();
        async move {
            tokio::select! {
                () = delivered(terminate) => {}
                () = delivered(interrupt) => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Resolves on the first delivery of `signal`; never without a handler.
#[cfg(unix)]
async fn delivered(signal: Option<tokio::signal::unix::Signal>) {
    if let Some(mut signal) = signal
        && signal.recv().await.is_some()
    {
        return;
    }
    std::future::pending().await
}

/// Starts the reload loop of `live`: the one place it is spawned, for both servers and
/// `dcx serve` (which gives both servers one `Live`, so one loop reloads it for both).
///
/// [`datasets::Live::reload`] runs on SIGHUP and, if the source is polled
/// ([`datasets::Source::poll_period`] of `poll`), every period; on a blocking thread, off
/// the request path. Every outcome goes to `report`, the quiet ones too (a history
/// unchanged since the last poll: metrics count them; a log shows only those that are
/// news, [`datasets::Reload::is_news`]); a reload that panics is reported as refused, and the loop goes on.
///
/// `hangups` is the SIGHUP handler the binary installed before it loaded the data
/// ([`Hangups::install`]): a SIGHUP received while the data loaded reloads once the loop
/// runs, instead of ending the process. Without SIGHUP support (non-unix, or no handler)
/// only the timer triggers reloads. The loop stops when the returned [`Reloads`] is
/// dropped.
pub fn spawn_reloads(
    live: Arc<datasets::Live>,
    poll: Option<Duration>,
    hangups: Hangups,
    report: impl Fn(&datasets::Reload) + Send + Sync + 'static,
) -> Reloads {
    let poll = live.source().poll_period(poll);
    let mut hangups = hangups;
    Reloads(tokio::spawn(async move {
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
            let reloading = Arc::clone(&live);
            let outcome = match tokio::task::spawn_blocking(move || reloading.reload()).await {
                Ok(outcome) => outcome,
                Err(err) => datasets::Reload::Refused {
                    serving: live.history().live().ts_text().to_owned(),
                    reason: format!("the reload failed: {err}"),
                },
            };
            report(&outcome);
        }
    }))
}

/// The running reload loop of [`spawn_reloads`]; dropping it stops the loop.
#[derive(Debug)]
#[must_use = "the reload loop stops when this is dropped"]
pub struct Reloads(tokio::task::JoinHandle<()>);

impl Drop for Reloads {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// SIGHUP deliveries, or nothing where they cannot be watched: what the reload loop
/// ([`spawn_reloads`]) listens to.
#[derive(Debug)]
pub struct Hangups {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Hangups {
    /// Installs the SIGHUP handler now, within a tokio runtime: from here on a SIGHUP
    /// never takes its default action (ending the process), and the ones received before
    /// the reload loop runs make it reload once. A binary calls it first, before it loads
    /// its data, so that a SIGHUP sent while a long history loads is not fatal.
    pub fn install() -> Hangups {
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
