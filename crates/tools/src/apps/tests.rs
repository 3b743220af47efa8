//! Tests of the MCP Apps views: their listing, reads, tool links and self-containment.

use pricing::{Clarity, Color, Shape};

use crate::{
    apps::{CALCULATOR, CHART, MIME, VIEWS, contents, tool_meta},
    catalog::Tool,
};

#[test]
fn views_read_as_mcp_app_html_with_a_csp_of_no_domains() {
    for view in &VIEWS {
        let contents = contents(view);
        let item = &contents[0];
        assert_eq!(item["uri"], view.uri);
        assert_eq!(item["mimeType"], MIME);
        assert!(item["text"].as_str().unwrap().starts_with("<!doctype html>"));
        let csp = item["_meta"]["ui"]["csp"].as_object().unwrap();
        assert!(csp.values().all(|domains| domains.as_array().unwrap().is_empty()));
    }
}

#[test]
fn views_load_nothing_from_outside() {
    for view in &VIEWS {
        let html = view.html.replace("http://www.w3.org/2000/svg", "");
        for banned in
            ["http://", "https://", "src=", "href=", "fetch(", "XMLHttpRequest", "import("]
        {
            assert!(!html.contains(banned), "{} contains {banned}", view.uri);
        }
        assert!(html.contains("default-src 'none'"), "{} declares no CSP", view.uri);
    }
}

#[test]
fn price_and_index_link_their_views_and_depth_none() {
    let uri = |tool| tool_meta(tool).map(|meta| meta["ui"]["resourceUri"].clone());
    assert_eq!(uri(Tool::Price).unwrap(), CALCULATOR.uri);
    assert_eq!(uri(Tool::Index).unwrap(), CHART.uri);
    assert_eq!(tool_meta(Tool::Index).unwrap()["ui/resourceUri"], CHART.uri);
    assert!(tool_meta(Tool::Depth).is_none());
}

#[test]
fn the_calculator_offers_every_grade_and_shape_in_order() {
    let options = |id: &str| -> Vec<String> {
        let start = CALCULATOR.html.find(&format!("<select id=\"{id}\">")).unwrap();
        let rest = &CALCULATOR.html[start..];
        let select = &rest[..rest.find("</select>").unwrap()];
        select
            .split("<option")
            .skip(1)
            .map(|o| o[o.find('>').unwrap() + 1..o.find("</option>").unwrap()].to_owned())
            .collect()
    };
    assert_eq!(options("color"), Color::ALL.iter().map(|g| g.as_str()).collect::<Vec<_>>());
    assert_eq!(options("clarity"), Clarity::ALL.iter().map(|g| g.as_str()).collect::<Vec<_>>());
    assert_eq!(options("shape"), Shape::ALL.iter().map(|g| g.as_str()).collect::<Vec<_>>());
}
