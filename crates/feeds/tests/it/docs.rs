//! Replays the curl examples of `docs/api.md`.
