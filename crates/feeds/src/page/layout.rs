//! The frame every HTML page shares: head, header with the sample-data banner, footer.

use maud::{DOCTYPE, Markup, html};

/// What the frame shows around a page's own content.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame<'a> {
    pub(crate) name: &'a str,
    pub(crate) version: &'a str,
    /// The live snapshot's `ts` as published.
    pub(crate) ts: &'a str,
    /// True when the embedded reference snapshot is being served.
    pub(crate) sample: bool,
}

/// The log line that says the embedded reference snapshot is being served.
pub(crate) const SAMPLE_NOTE: &str = "sample data: serving the embedded reference snapshot, a made-up market for trying \
     the service out, not market prices; serve real data with --snapshot DIR or --history DIR";

/// A whole page: `title`, then `content` inside the shared frame.
pub(crate) fn page(frame: &Frame<'_>, title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light";
                title { (title) }
                link rel="stylesheet" href="/site.css";
                link rel="icon" href="data:,";
                script src="/site.js" defer {}
            }
            body {
                header.top {
                    div.wrap {
                        a.brand href="/" { span.mark { "◆" } " DCX " span.sub { "diamond price index" } }
                        nav {
                            a href="/#chart" { "Chart" }
                            a href="/#calculator" { "Calculator" }
                            a href="/#prices" { "Prices" }
                            a href="/#depth" { "Depth" }
                            a href="/#data" { "Data & API" }
                        }
                    }
                }
                @if frame.sample {
                    div.banner role="note" id="sample-data" {
                        div.wrap {
                            strong { "Sample data. " }
                            "This server shows the built-in reference snapshot, a made-up market for trying \
                             the service out: its prices are not market prices. Serve real data with "
                            code { "--snapshot DIR" } " or " code { "--history DIR" } "."
                        }
                    }
                }
                main.wrap { (content) }
                footer.wrap {
                    p {
                        "Snapshot " code { (frame.ts) } ". Free, open and unauthenticated; refreshed about \
                         once every 24 hours. Prices are asking prices in US dollars for natural, \
                         GIA-graded stones. "
                        (frame.name) " " (frame.version) "."
                    }
                }
            }
        }
    }
}
