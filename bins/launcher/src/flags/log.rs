//! The logging flag; `RUST_LOG` sets the filter.

/// How events are written to stderr; see `telemetry` and docs/operations.md.
#[derive(Debug, Clone, clap::Args)]
pub struct LogFlags {
    /// Log lines as `text` or `json` (one object per line), with UTC timestamps and
    /// levels; RUST_LOG filters them (default info; e.g. RUST_LOG=warn,dcx::access=info).
    #[arg(long, default_value = "text", value_name = "FORMAT")]
    pub log_format: telemetry::LogFormat,
}

impl LogFlags {
    /// Installs the log writer, to be kept while the process runs; an invalid
    /// `RUST_LOG` is refused before anything runs.
    pub fn init(&self) -> Result<telemetry::Logs, String> {
        let rust_log = std::env::var("RUST_LOG").ok();
        Ok(telemetry::init_logs(self.log_format, telemetry::filter(rust_log.as_deref())?))
    }
}
