//! `/docs`: the tool server's documentation (`docs/mcp.md`), as Markdown for programs and
//! as a rendered HTML page for browsers, its examples naming this server's real URLs.

use bytes::Bytes;
use hyper::{
    HeaderMap, Response,
    header::{self, HeaderValue},
};
use pulldown_cmark::{Options, Parser, html};
use serve::Body;

#[cfg(test)]
mod tests;

/// The built-in documentation, served at `/docs`.
const MARKDOWN: &str = include_str!("../../../docs/mcp.md");
/// The endpoint and feed server the examples of `docs/mcp.md` are written for.
const EXAMPLE_ENDPOINT: &str = "http://127.0.0.1:8081/";
const EXAMPLE_FEED_URL: &str = "http://127.0.0.1:8080";
/// No script at all; the page's one inline style sheet; nothing from another host.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const STYLE: &str = "body{margin:0;background:#f5f6f8;color:#17202c;font:16px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif}\
main{max-width:860px;margin:0 auto;padding:24px 20px 48px;background:#fff;min-height:100vh;box-sizing:border-box}\
h1{font-size:1.8rem;margin:.2em 0 .6em}h2{font-size:1.3rem;margin:1.8em 0 .5em;padding-top:.6em;border-top:1px solid #e2e6ec}h3{font-size:1.05rem}\
a{color:#1d4fa8}code{font:.88em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f1f3f6;padding:.1em .3em;border-radius:4px}\
pre{background:#14284b;color:#e8edf6;padding:14px 16px;border-radius:8px;overflow-x:auto}pre code{background:none;padding:0;color:inherit}\
table{border-collapse:collapse;display:block;overflow-x:auto;margin:1em 0}th,td{border:1px solid #e2e6ec;padding:6px 10px;text-align:left;vertical-align:top}\
th{background:#f5f6f8}p,li{overflow-wrap:break-word}td:last-child{min-width:14em}td:first-child{white-space:nowrap}header code{background:none;color:#dbe3f0;padding:0}header{background:#14284b;color:#fff;padding:12px 20px;font-weight:700}header span{color:#a8823e}\
@media (max-width:560px){main{padding:16px 14px 40px}h1{font-size:1.45rem}}";

/// Both forms of the page, built once per server.
#[derive(Debug, Clone)]
pub(crate) struct Docs {
    html: Bytes,
}

impl Docs {
    /// Renders the page with `endpoint` (the advertised MCP URL) and `feed_url` (the feed
    /// server's base URL) in place of the documentation's example addresses.
    pub(crate) fn new(endpoint: &str, feed_url: &str) -> Docs {
        Docs { html: Bytes::from(render(MARKDOWN, endpoint, feed_url)) }
    }

    /// The body and media type for a request with `headers`: HTML for browsers,
    /// Markdown otherwise.
    pub(crate) fn pick(&self, headers: &HeaderMap) -> (Bytes, &'static str) {
        match serve::accepts_html(headers) {
            true => (self.html.clone(), "text/html; charset=utf-8"),
            false => (Bytes::from_static(MARKDOWN.as_bytes()), "text/markdown; charset=utf-8"),
        }
    }

    /// The fields every `/docs` answer adds: it varies with `Accept`, and HTML is locked
    /// down by a `Content-Security-Policy`.
    pub(crate) fn finish(response: &mut Response<Body>) {
        let headers = response.headers_mut();
        headers.insert(header::VARY, HeaderValue::from_static("Accept"));
        let html = headers
            .get(header::CONTENT_TYPE)
            .is_some_and(|kind| kind.as_bytes().starts_with(b"text/html"));
        if html {
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CONTENT_SECURITY_POLICY),
            );
            headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        }
    }
}

/// `markdown` as a whole HTML page, the example URLs replaced by the real ones.
fn render(markdown: &str, endpoint: &str, feed_url: &str) -> String {
    let text = markdown
        .replace(EXAMPLE_ENDPOINT, endpoint)
        .replace(EXAMPLE_FEED_URL, feed_url.trim_end_matches('/'));
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut body = String::with_capacity(text.len() * 2);
    html::push_html(&mut body, Parser::new_ext(&text, options));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>MCP tool server: diamond pricing</title><link rel=\"icon\" href=\"data:,\">\
         <style>{STYLE}</style></head><body><header><span>◆</span> DCX tool server · \
         <code>{}</code></header><main>{body}</main></body></html>\n",
        escape(endpoint)
    )
}

/// `text` with the HTML special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
