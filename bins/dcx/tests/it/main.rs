//! `dcx` run as a process: quotes (text and JSON), validation, argument errors, and the
//! stdio MCP server (`mcp.rs`).

mod build;
mod mcp;

use std::{
    path::Path,
    process::{Command, Output},
};

use test_support::{TempDir, process::Server};

/// `dcx` with the words of `line`, each `{}` replaced by the next of `paths` (which may
/// hold spaces).
fn command(line: &str, paths: &[&Path]) -> Command {
    let mut paths = paths.iter();
    let mut command = Command::new(env!("CARGO_BIN_EXE_dcx"));
    command.args(line.split_whitespace().map(|word| match word {
        "{}" => paths.next().expect("a path for each {}").as_os_str(),
        word => word.as_ref(),
    }));
    command
}

/// Runs [`command`] to its end.
fn dcx(line: &str, paths: &[&Path]) -> Output {
    command(line, paths).output().expect("run dcx")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn quote_prints_a_readable_price() {
    let out = dcx("quote --carat 1.0 --color G --clarity VS2", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Per carat: $5,900.00"), "{}", stdout(&out));
}

#[test]
fn quote_json_is_the_tool_structured_content() {
    let out =
        dcx("quote --carat 1.23 --color g --clarity vs2 --shape oval --ratio 1.35 --json", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let snapshot = datasets::Snapshot::reference();
    let args = serde_json::json!({"carat": 1.23, "color": "g", "clarity": "vs2", "shape": "oval", "shape_ratio": 1.35});
    let expected = tools::price::price(
        &snapshot,
        &tools::Object::from(args.as_object().unwrap().clone()),
        &tools::price::Links::default(),
    )
    .unwrap();
    assert_eq!(value, expected.structured_value());
    assert_eq!(value["shape"], "oval");
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let out = dcx("quote --carat 7 --color G --clarity VS2", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("carat must be between 0.3 and 6, got 7"), "{}", stderr(&out));
    let out = dcx("quote --carat 1 --color Z --clarity VS2", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown color \"Z\""));
    let out = dcx("quote --carat abc --color G --clarity VS2", &[]);
    assert_eq!(out.status.code(), Some(2));
    let expected = "dcx quote: carat must be a number of carats from 0.3 to 6, got \"abc\"\n";
    assert_eq!(stderr(&out), expected);
    let out = dcx("frobnicate", &[]);
    assert_eq!(out.status.code(), Some(2));
}

/// Every problem at once, in the words of the MCP tool and `/track` (the quote rules').
#[test]
fn quote_lists_every_problem_in_the_quote_rules_words() {
    let out = dcx("quote --shape blob --carat 9 --color Z --clarity vs2", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        [
            "dcx quote: carat must be between 0.3 and 6, got 9",
            r#"dcx quote: unknown color "Z"; allowed: D, E, F, G, H, I, J, K, L, M"#,
            r#"dcx quote: unknown shape "blob"; allowed: round, cushion, radiant, emerald, oval, pear, marquise, heart"#,
            "",
        ]
        .join("\n")
    );
    let out = dcx("quote --carat -1 --ratio -2", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        [
            "dcx quote: carat must be between 0.3 and 6, got -1",
            "dcx quote: color is required: one of D, E, F, G, H, I, J, K, L, M",
            "dcx quote: clarity is required: one of FL, IF, VVS1, VVS2, VS1, VS2, SI1, SI2",
            "dcx quote: L/W ratio for a round stone must be 1 (within 0.05), got -2; omit it for round stones",
            "",
        ]
        .join("\n")
    );
    // A rule only a snapshot can apply: the oval model's slider.
    let out = dcx("quote --carat 1 --color G --clarity VS2 --shape oval --ratio 3", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "dcx quote: L/W ratio for oval must be between 1.25 and 1.7, got 3\n");
}

/// Negative and non-finite numbers get the range message, like any number out of range,
/// together with every other problem of the arguments.
#[test]
fn negative_and_non_finite_numbers_get_the_range_message() {
    for carat in ["-1", "NaN", "inf"] {
        let out = dcx(&format!("quote --carat {carat} --color G --clarity VS2"), &[]);
        assert_eq!(out.status.code(), Some(2), "{carat}");
        assert_eq!(
            stderr(&out),
            format!("dcx quote: carat must be between 0.3 and 6, got {carat}\n"),
            "{carat}"
        );
    }
    let out = dcx("quote --carat NaN --color Z --clarity VS2", &[]);
    assert_eq!(
        stderr(&out),
        "dcx quote: carat must be between 0.3 and 6, got NaN\n\
         dcx quote: unknown color \"Z\"; allowed: D, E, F, G, H, I, J, K, L, M\n"
    );
    let out = dcx("quote --carat 1 --color G --clarity VS2 --shape oval --ratio NaN", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "dcx quote: L/W ratio must be a positive number, got NaN\n");
}

/// A reader that goes away (`dcx ... | head -0`) ends dcx quietly and successfully.
#[test]
fn a_closed_pipe_exits_quietly() {
    use std::process::Stdio;
    for line in ["history --help", "quote --carat 1 --color G --clarity VS2"] {
        let mut child =
            command(line, &[]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{line}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{line}");
    }
}

/// `--help` shows examples, and `--version` the real version.
#[test]
fn help_has_examples_and_version_is_real() {
    for line in ["--help", "quote --help", "validate --help", "serve --help"] {
        let out = dcx(line, &[]);
        assert!(out.status.success());
        assert!(stdout(&out).contains("Examples:\n  dcx "), "{line}: {}", stdout(&out));
    }
    let version = stdout(&dcx("--version", &[]));
    assert_eq!(version, format!("dcx {}\n", env!("CARGO_PKG_VERSION")));
    assert_ne!(env!("CARGO_PKG_VERSION"), "0.0.0");
}

#[test]
fn validate_accepts_the_reference_and_lists_every_problem() {
    let dir = test_support::fixture_path("snapshot");
    let out = dcx("validate {}", &[&dir]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("valid snapshot of 2026-11-20T00:00:00Z"));

    // An invalid snapshot: the reference with a broken index basket.
    let bad = TempDir::new("validate");
    write_broken_basket(
        &bad.0,
        &["matrix.json", "matrix_cushion.json", "ratio_models.json", "depth.json"],
    );
    let out = dcx("validate {}", &[&bad.0]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("4 problems"), "{text}");
    assert!(text.contains("index.json /specs/1/log"), "{text}");
}

/// Writes into `dir` the reference snapshot's `feeds` and an `index.json` whose basket
/// disagrees with the matrix.
fn write_broken_basket(dir: &std::path::Path, feeds: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    for name in feeds {
        std::fs::copy(test_support::fixture_path("snapshot").join(name), dir.join(name)).unwrap();
    }
    std::fs::copy(
        test_support::fixture_path("snapshot-err/basket_disagrees_with_matrix/index.json"),
        dir.join("index.json"),
    )
    .unwrap();
}

/// A missing feed does not hide the problems of the others, and a history day folder
/// holding another day's snapshot is reported (the servers refuse it too).
#[test]
fn validate_runs_every_check_and_lists_every_problem() {
    let root = TempDir::new("validate-all");
    let bad = root.0.join("snapshot");
    write_broken_basket(&bad, &["matrix.json", "matrix_cushion.json", "ratio_models.json"]);
    let out = dcx("validate {}", &[&bad]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("depth.json /: file") && text.contains("is missing"), "{text}");
    assert!(text.contains("index.json /specs/1/log"), "{text}");

    let history = root.0.join("history");
    test_support::write_day(&history, "2026-11-21", |_, text| text);
    test_support::write_day(&history, "2026-11-22", |_, text| {
        text.replace("2026-11-22T00:00:00Z", "2026-11-23T00:00:00Z")
    });
    let out = dcx("validate {}", &[&history]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "2026-11-21: valid snapshot of 2026-11-21T00:00:00Z\n\
         skipped 2026-11-22: the folder is dated 2026-11-22 but holds the snapshot of 2026-11-23 \
         (ts 2026-11-23T00:00:00Z)\n"
    );
}

#[test]
fn validate_of_a_missing_folder_fails() {
    let out = dcx("validate /nonexistent/dcx-snapshot", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "/nonexistent/dcx-snapshot: no such snapshot folder\n");
}

/// Every `$ dcx ...` example in the docs prints exactly what the docs show.
#[test]
fn documented_examples_are_true() {
    let mut checked = 0;
    for doc in ["docs/pricing.md", "README.md"] {
        let text = std::fs::read_to_string(test_support::workspace_root().join(doc)).unwrap();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ dcx ") else { continue };
            let expected: Vec<&str> =
                lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
            let out = dcx(command, &[]);
            assert!(out.status.success(), "{doc}: dcx {command}: {}", stderr(&out));
            assert_eq!(stdout(&out).trim_end(), expected.join("\n"), "{doc}: dcx {command}");
            checked += 1;
        }
    }
    assert!(checked >= 2, "no documented examples found");
}

/// `dcx serve` on free loopback ports.
const SERVE: [&str; 5] = ["serve", "--feed-listen", "127.0.0.1:0", "--tool-listen", "127.0.0.1:0"];

/// [`SERVE`] with `extra` flags; the process and the feed and tool server addresses it
/// printed.
fn start_serve(extra: &[&str]) -> (Server, String, String) {
    let server = Server::start(env!("CARGO_BIN_EXE_dcx"), &[&SERVE[..], extra].concat());
    let (feeds, tools) = (served_addr(&server, "feeds"), served_addr(&server, "tools"));
    (server, feeds, tools)
}

/// The address `dcx serve` printed for its server `name` (`feeds` or `tools`).
fn served_addr(server: &Server, name: &str) -> String {
    // `... listening on http://ADDR server="feeds" listen=ADDR`
    let line = server.line(&format!("server=\"{name}\" listen="));
    line.rsplit("listen=").next().unwrap().trim().to_owned()
}

/// A SIGHUP while the history loads does not end `dcx serve`: both servers start, serve
/// and stop as usual.
#[test]
fn serve_survives_a_sighup_while_the_data_loads() {
    let feeds = |server: &Server| served_addr(server, "feeds");
    let health = Server::hang_up_while_loading(env!("CARGO_BIN_EXE_dcx"), &SERVE, feeds);
    assert_eq!(health.json()["history_days"], 120, "{health:?}");
}

/// `dcx serve` starts both servers on the same data; a quote's tracking link points at
/// the feed server actually running, the tool server honours `--allowed-origin`, and
/// SIGTERM drains both and exits 0.
#[test]
fn serve_runs_both_servers_and_links_them() {
    use test_support::http::{MODERN_META, exchange_blocking, get_blocking, mcp_post};
    let (server, feeds, tools) = start_serve(&["--allowed-origin", "https://app.example"]);
    let index = get_blocking(&feeds, "/index.json");
    assert_eq!(index.status, 200, "{index:?}");
    assert!(index.text().contains("\"dcx\": 4016.38"), "{}", index.text());
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_diamond_price","arguments":{{"carat":1.0,"color":"G","clarity":"VS2"}},"_meta":{MODERN_META}}}}}"#
    );
    let post = mcp_post(&tools, &["Origin: https://app.example"], &body);
    let call = exchange_blocking(tools.parse().unwrap(), post.as_bytes());
    assert_eq!(call.status, 200, "{}", call.text());
    assert_eq!(call.header("access-control-allow-origin"), Some("https://app.example"));
    let link = format!("http://{feeds}/track?shape=round&carat=1&color=G&clarity=VS2");
    assert!(call.text().contains(&link), "{}", call.text());
    let track = get_blocking(&feeds, &link[link.find("/track").unwrap()..]);
    assert!(track.status == 200 && track.text().contains("5900"), "{}", track.text());

    server.stop_gracefully();
}

/// `dcx serve` holds one copy of the data: one SIGHUP reload is seen by both servers.
#[test]
fn serve_reloads_one_copy_of_the_data_for_both_servers() {
    use test_support::{http::get_blocking, write_day};
    let dir = TempDir::new("serve-reload");
    write_day(&dir.0, "2026-11-20", |_, text| text);
    let (server, feeds, tools) =
        start_serve(&["--history", dir.0.to_str().unwrap(), "--poll-secs", "0"]);
    write_day(&dir.0, "2026-11-21", |_, text| text);
    server.signal("HUP");
    server.line("reload accepted: now serving snapshot 2026-11-21T00:00:00Z (2 days)");
    let index = get_blocking(&feeds, "/index.json");
    assert!(index.text().contains("2026-11-21T00:00:00Z"), "{}", index.text());
    let health = get_blocking(&tools, "/health").json();
    assert_eq!(health["snapshot"]["ts"], "2026-11-21T00:00:00Z");
    assert_eq!(health["snapshot"]["history_days"], 2);
    server.stop_gracefully();
}

/// Bad URL flags are refused alike by every command that takes one, with the flag and
/// the value named, as a usage error (exit 2), before anything is loaded or bound.
#[test]
fn every_command_refuses_bad_url_flags_alike() {
    let (serve, quote) = (SERVE.join(" "), "quote --carat 1 --color G --clarity VS2");
    for (args, flag, url, problem) in [
        (serve.as_str(), "--public-url", "ftp://x", "not an http(s) URL"),
        (&serve, "--feed-url", "localhost:8080", "not an http(s) URL"),
        (&serve, "--docs-url", "http://", "an http(s) URL needs a host"),
        (quote, "--feed-url", "notaurl", "not an http(s) URL"),
        ("mcp", "--feed-url", "notaurl", "not an http(s) URL"),
    ] {
        let line = format!("{args} {flag} {url}");
        let out = dcx(&line, &[]);
        assert_eq!(out.status.code(), Some(2), "{line}");
        let text = stderr(&out);
        let named = format!("invalid value '{url}' for '{flag} <");
        assert!(text.contains(&named) && text.contains(problem), "{line}: {text}");
        assert!(!text.contains("listening"), "{text}");
    }
}

/// `dcx gen-listings` writes the same bytes for the same seed, and `dcx build` builds
/// them; bad parameters exit 2 with what is allowed.
#[test]
fn gen_listings_writes_a_market_dcx_builds() {
    let dir = TempDir::new("gen");
    let file = dir.0.join("listings.csv");
    let out = dcx("gen-listings --seed 3 --out {}", &[&file]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("dcx gen-listings: 25800 rows: "), "{}", stderr(&out));
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.lines().count(), 25_801);
    let again = dcx("gen-listings --seed 3", &[]);
    assert_eq!(stdout(&again), written, "the same seed, the same bytes");
    let build = dcx("build --listings {} --date 2026-11-20 --out {}", &[&file, &dir.0.join("day")]);
    assert!(build.status.success(), "{}", stderr(&build));
    assert!(stdout(&build).contains("rows: 25800 in"), "{}", stdout(&build));
    let refused = dcx("gen-listings --junk 2", &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(stderr(&refused), "dcx gen-listings: junk share must be 0..=1, got 2\n");
}

/// `dcx serve --metrics-listen`: one scrape holds both servers' requests (by `server`),
/// the reloads of the one copy of the data, and the day now served.
#[test]
fn serve_metrics_cover_both_servers_and_the_reloads() {
    use test_support::{http::get_blocking, write_day};
    let dir = TempDir::new("serve-metrics");
    write_day(&dir.0, "2026-11-20", |_, text| text);
    let history = ["--history", dir.0.to_str().unwrap(), "--poll-secs", "0"];
    let args = [&SERVE[..], &["--metrics-listen", "127.0.0.1:0"], &history].concat();
    let server = Server::start(env!("CARGO_BIN_EXE_dcx"), &args);
    // The metrics address is logged before the servers' addresses.
    let metrics = server.metrics_addr();
    let (feeds, tools) = (served_addr(&server, "feeds"), served_addr(&server, "tools"));
    assert_eq!(get_blocking(&feeds, "/health").status, 200);
    assert_eq!(get_blocking(&tools, "/health").status, 200);
    write_day(&dir.0, "2026-11-21", |_, text| text);
    server.signal("HUP");
    server.line("reload accepted: now serving snapshot 2026-11-21T00:00:00Z (2 days)");

    let text = get_blocking(&metrics, "/metrics").text().to_owned();
    for line in [
        r#"dcx_http_requests_total{server="feeds",route="/health",status="200"} 1"#,
        r#"dcx_http_requests_total{server="tools",route="/health",status="200"} 1"#,
        r#"dcx_reloads_total{outcome="accepted"} 1"#,
        r#"dcx_snapshot_info{day="2026-11-21",source="history"} 1"#,
        "dcx_snapshot_history_days 2",
    ] {
        assert!(text.lines().any(|sample| sample == line), "no {line} in:\n{text}");
    }
    server.stop_gracefully();
}
