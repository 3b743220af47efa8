//! The live data as figures, read at scrape time: the snapshot's day, its age (from the
//! injected clock, so it keeps growing between reloads), the history held and whether
//! newer data was refused.

use std::{sync::Arc, time::UNIX_EPOCH};

use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeGaugeValue, EncodeMetric},
    metrics::{MetricType, gauge::ConstGauge},
};

/// Reads a [`datasets::Live`] on each scrape.
pub(crate) struct LiveData {
    pub(crate) live: Arc<datasets::Live>,
    pub(crate) clock: serve::Clock,
}

impl std::fmt::Debug for LiveData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveData").field("live", &self.live).finish_non_exhaustive()
    }
}

impl Collector for LiveData {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        let history = self.live.history();
        let ts = history.live().ts().timestamp();
        let now =
            (self.clock)().duration_since(UNIX_EPOCH).map_or(0.0, |since| since.as_secs_f64());
        let day = history.live_date().to_string();
        let labels = [("day", day.as_str()), ("source", self.live.source().kind())];
        encoder
            .encode_descriptor(
                "dcx_snapshot",
                "The snapshot being served: its day and where it comes from (embedded, snapshot, history).",
                None,
                MetricType::Info,
            )?
            .encode_info(&labels)?;
        gauge(
            &mut encoder,
            "dcx_snapshot_timestamp_seconds",
            "The ts of the snapshot being served, in unix seconds.",
            ts,
        )?;
        gauge(
            &mut encoder,
            "dcx_snapshot_age_seconds",
            "Seconds since the ts of the snapshot being served, at scrape time.",
            now - ts as f64,
        )?;
        gauge(
            &mut encoder,
            "dcx_snapshot_history_days",
            "Days of history held (the live day and the days before it).",
            history.days().len() as i64,
        )?;
        gauge(
            &mut encoder,
            "dcx_snapshot_refused",
            "1 when the latest reload found newer data and refused it (the /health status degraded), else 0.",
            i64::from(self.live.last_refusal().is_some()),
        )?;
        Ok(())
    }
}

/// Writes one unlabelled gauge family.
fn gauge(
    encoder: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    value: impl EncodeGaugeValue,
) -> Result<(), std::fmt::Error> {
    let metric = ConstGauge::new(value);
    metric.encode(encoder.encode_descriptor(name, help, None, metric.metric_type())?)
}
