//! Layered graph drawings as SVG, drawn on the server: an impact answer (nodes by depth), a
//! DAG-grep answer (seeds, then layers) or a node's neighbourhood. The caller already knows
//! each node's layer (a column); this module orders the nodes inside each column to reduce
//! crossings (barycentre sweeps), places the boxes, routes the edges as Bézier curves and
//! writes the SVG. Colours come from the page's stylesheet (classes only), and the output is
//! deterministic: the same input gives the same bytes.

use crate::html::esc;
use std::collections::BTreeSet;
use std::fmt::Write;

/// One box of the drawing.
pub struct GraphNode {
    /// Main text (`Server.start`); cut to [`MAX_LABEL`] characters with `…`.
    pub label: String,
    /// Second, smaller line (`method · src/server.ts:12`); cut to [`MAX_DETAIL`].
    pub detail: String,
    /// The column, 0 leftmost; gaps between layer numbers collapse.
    pub layer: u32,
    /// The link the box leads to (escaped here).
    pub href: Option<String>,
    /// CSS class of the box's group (`target`, `seed`, `reached`, `test`, `anchor`).
    pub class: &'static str,
    /// Tooltip text, e.g. the full ID.
    pub title: String,
}

/// One arrow.
pub struct GraphEdge {
    /// Index into the nodes; an index out of range skips the edge.
    pub from: usize,
    pub to: usize,
    /// Drawn at the middle of the edge (`CALLS`).
    pub label: String,
    /// Confidence in [0, 1]: stroke width and opacity.
    pub weight: f64,
    /// A back edge: drawn dashed (edges into the same or an earlier column are drawn so too).
    pub back: bool,
}

/// Longest label shown in a box.
pub const MAX_LABEL: usize = 40;
/// Longest detail line shown in a box.
pub const MAX_DETAIL: usize = 48;

const MARGIN: f64 = 16.0;
const BOX_H: f64 = 38.0;
const V_GAP: f64 = 14.0;
const COL_GAP: f64 = 90.0;
const MIN_W: f64 = 80.0;
const SWEEPS: usize = 4;
/// Where along a forward edge its label is drawn (0: source, 1: target).
const LABEL_AT: f64 = 0.35;

/// A cubic Bézier coordinate at `t`.
fn cubic(p: [f64; 4], t: f64) -> f64 {
    let u = 1.0 - t;
    u * u * u * p[0] + 3.0 * u * u * t * p[1] + 3.0 * u * t * t * p[2] + t * t * t * p[3]
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// A number with at most one decimal (`12`, `12.5`).
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 { format!("{}", r as i64) } else { format!("{r:.1}") }
}

struct Placed {
    x: f64,
    y: f64,
    w: f64,
}

/// Lays out and draws the graph.
pub fn render(nodes: &[GraphNode], edges: &[GraphEdge]) -> String {
    if nodes.is_empty() {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cg-graph\" width=\"200\" height=\"40\" viewBox=\"0 0 200 40\" role=\"img\"><text x=\"16\" y=\"24\" class=\"detail\">nothing to draw</text></svg>".to_string();
    }
    // Columns: the distinct layers in ascending order.
    let layers: Vec<u32> =
        nodes.iter().map(|n| n.layer).collect::<BTreeSet<_>>().into_iter().collect();
    let col_of: Vec<usize> =
        nodes.iter().map(|n| layers.binary_search(&n.layer).unwrap_or(0)).collect();
    let mut columns: Vec<Vec<usize>> = vec![Vec::new(); layers.len()];
    for (i, &c) in col_of.iter().enumerate() {
        columns[c].push(i);
    }
    // Distinct edges with valid ends.
    let mut seen: BTreeSet<(usize, usize, &str)> = BTreeSet::new();
    let edges: Vec<&GraphEdge> = edges
        .iter()
        .filter(|e| e.from < nodes.len() && e.to < nodes.len())
        .filter(|e| seen.insert((e.from, e.to, e.label.as_str())))
        .collect();
    order_columns(&mut columns, &col_of, &edges, nodes.len());

    // Geometry.
    let width_of = |n: &GraphNode| -> f64 {
        let l = cut(&n.label, MAX_LABEL).chars().count() as f64 * 7.2;
        let d = cut(&n.detail, MAX_DETAIL).chars().count() as f64 * 6.0;
        (l.max(d) + 20.0).max(MIN_W)
    };
    let col_w: Vec<f64> = columns
        .iter()
        .map(|c| c.iter().map(|&i| width_of(&nodes[i])).fold(MIN_W, f64::max))
        .collect();
    let col_h = |len: usize| len as f64 * BOX_H + len.saturating_sub(1) as f64 * V_GAP;
    let tallest = columns.iter().map(|c| col_h(c.len())).fold(0.0, f64::max);
    let has_back = edges.iter().any(|e| e.back || col_of[e.to] <= col_of[e.from]);
    let loop_room = if has_back { 40.0 } else { 0.0 };
    let mut placed: Vec<Placed> =
        (0..nodes.len()).map(|_| Placed { x: 0.0, y: 0.0, w: 0.0 }).collect();
    let mut x = MARGIN;
    for (c, col) in columns.iter().enumerate() {
        let top = MARGIN + loop_room + (tallest - col_h(col.len())) / 2.0;
        for (k, &i) in col.iter().enumerate() {
            placed[i] = Placed { x, y: top + k as f64 * (BOX_H + V_GAP), w: width_of(&nodes[i]) };
        }
        x += col_w[c] + COL_GAP;
    }
    let width = x - COL_GAP + MARGIN;
    let height = tallest + 2.0 * MARGIN + 2.0 * loop_room;

    let mut out = String::with_capacity(512 + nodes.len() * 300 + edges.len() * 250);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cg-graph\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\
         <defs><marker id=\"cg-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>",
        w = num(width),
        h = num(height)
    );
    out.push_str("<g class=\"edges\">");
    for e in &edges {
        let (a, b) = (&placed[e.from], &placed[e.to]);
        let back = e.back || col_of[e.to] <= col_of[e.from];
        let (path, mx, my) = if e.from == e.to {
            // A small loop on the box's top right.
            let (x0, y0) = (a.x + a.w - 18.0, a.y);
            (
                format!(
                    "M{},{} C{},{} {},{} {},{}",
                    num(x0),
                    num(y0),
                    num(x0 - 6.0),
                    num(y0 - 26.0),
                    num(x0 + 24.0),
                    num(y0 - 26.0),
                    num(x0 + 12.0),
                    num(y0)
                ),
                x0 + 9.0,
                y0 - 22.0,
            )
        } else if back {
            // Leaves the source's right side, loops above (or below) the columns and enters
            // the target's left side.
            let (x0, y0) = (a.x + a.w, a.y + BOX_H / 2.0);
            let (x1, y1) = (b.x, b.y + BOX_H / 2.0);
            let above = (y0 + y1) / 2.0 <= height / 2.0;
            let yb = if above { MARGIN / 2.0 } else { height - MARGIN / 2.0 };
            (
                format!(
                    "M{},{} C{},{} {},{} {},{}",
                    num(x0),
                    num(y0),
                    num(x0 + 60.0),
                    num(yb),
                    num(x1 - 60.0),
                    num(yb),
                    num(x1),
                    num(y1)
                ),
                (x0 + x1) / 2.0,
                yb + if above { 12.0 } else { -4.0 },
            )
        } else {
            let (x0, y0) = (a.x + a.w, a.y + BOX_H / 2.0);
            let (x1, y1) = (b.x, b.y + BOX_H / 2.0);
            let dx = ((x1 - x0) / 2.0).max(20.0);
            (
                format!(
                    "M{},{} C{},{} {},{} {},{}",
                    num(x0),
                    num(y0),
                    num(x0 + dx),
                    num(y0),
                    num(x1 - dx),
                    num(y1),
                    num(x1),
                    num(y1)
                ),
                // The label sits a third of the way along, where edges fanning into one
                // box have not converged yet.
                cubic([x0, x0 + dx, x1 - dx, x1], LABEL_AT),
                cubic([y0, y0, y1, y1], LABEL_AT) - 3.0,
            )
        };
        let w = e.weight.clamp(0.0, 1.0);
        let _ = write!(
            out,
            "<g class=\"edge{cls}\"><title>{t} {w:.2}</title><path d=\"{path}\" stroke-width=\"{sw}\" stroke-opacity=\"{op:.2}\"{dash} marker-end=\"url(#cg-arrow)\"/><text class=\"elabel\" x=\"{mx}\" y=\"{my}\" text-anchor=\"middle\">{t}</text></g>",
            cls = if back { " back" } else { "" },
            t = esc(&e.label),
            sw = num(0.6 + 2.4 * w),
            op = 0.35 + 0.65 * w,
            dash = if back { " stroke-dasharray=\"5 3\"" } else { "" },
            mx = num(mx),
            my = num(my),
        );
    }
    out.push_str("</g><g class=\"nodes\">");
    for (i, n) in nodes.iter().enumerate() {
        let p = &placed[i];
        let _ = write!(
            out,
            "<g class=\"node {cls}\" data-layer=\"{layer}\" transform=\"translate({x},{y})\">",
            cls = esc(n.class),
            layer = n.layer,
            x = num(p.x),
            y = num(p.y)
        );
        if let Some(href) = &n.href {
            let _ = write!(out, "<a href=\"{}\">", esc(href));
        }
        let _ = write!(
            out,
            "<title>{title}</title><rect rx=\"6\" width=\"{w}\" height=\"{h}\"/><text class=\"label\" x=\"10\" y=\"16\">{label}</text><text class=\"detail\" x=\"10\" y=\"31\">{detail}</text>",
            title = esc(if n.title.is_empty() { &n.label } else { &n.title }),
            w = num(p.w),
            h = num(BOX_H),
            label = esc(&cut(&n.label, MAX_LABEL)),
            detail = esc(&cut(&n.detail, MAX_DETAIL)),
        );
        if n.href.is_some() {
            out.push_str("</a>");
        }
        out.push_str("</g>");
    }
    out.push_str("</g></svg>");
    out
}

/// Orders each column to reduce crossings: alternate sweeps left to right (a node's key is
/// the mean position of its neighbours in the column before) and right to left (in the
/// column after); ties keep the previous order, so the result is deterministic.
fn order_columns(columns: &mut [Vec<usize>], col_of: &[usize], edges: &[&GraphEdge], n: usize) {
    let mut pos = vec![0usize; n];
    let index = |columns: &[Vec<usize>], pos: &mut Vec<usize>| {
        for col in columns {
            for (k, &i) in col.iter().enumerate() {
                pos[i] = k;
            }
        }
    };
    index(columns, &mut pos);
    // Neighbours in adjacent columns, both ways.
    let mut left: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut right: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in edges {
        let (a, b) = (e.from, e.to);
        if col_of[a] == col_of[b] {
            continue;
        }
        let (l, r) = if col_of[a] < col_of[b] { (a, b) } else { (b, a) };
        right[l].push(r);
        left[r].push(l);
    }
    for sweep in 0..2 * SWEEPS {
        let down = sweep % 2 == 0;
        let order: Vec<usize> = if down {
            (1..columns.len()).collect()
        } else {
            (0..columns.len().saturating_sub(1)).rev().collect()
        };
        for c in order {
            let neighbours = if down { &left } else { &right };
            let mut keyed: Vec<(f64, usize, usize)> = columns[c]
                .iter()
                .map(|&i| {
                    let ns = &neighbours[i];
                    let key = if ns.is_empty() {
                        pos[i] as f64
                    } else {
                        ns.iter().map(|&j| pos[j] as f64).sum::<f64>() / ns.len() as f64
                    };
                    (key, pos[i], i)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            columns[c] = keyed.into_iter().map(|(_, _, i)| i).collect();
            for (k, &i) in columns[c].iter().enumerate() {
                pos[i] = k;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(label: &str, layer: u32) -> GraphNode {
        GraphNode {
            label: label.to_string(),
            detail: "function · a.ts:1".into(),
            layer,
            href: Some(format!("/node/{label}")),
            class: "reached",
            title: format!("sym:ts:a.ts:{label}"),
        }
    }

    fn edge(from: usize, to: usize) -> GraphEdge {
        GraphEdge { from, to, label: "CALLS".into(), weight: 0.9, back: false }
    }

    /// (label, x, y) of every node box, from the `transform` written for it.
    fn edge_groups(svg: &str) -> usize {
        svg.matches("<g class=\"edge\">").count() + svg.matches("<g class=\"edge back\">").count()
    }

    fn boxes(svg: &str) -> Vec<(String, f64, f64)> {
        svg.split("<g class=\"node ")
            .skip(1)
            .map(|g| {
                let t =
                    g.split("translate(").nth(1).and_then(|t| t.split(')').next()).unwrap_or("");
                let (x, y) = t.split_once(',').unwrap_or(("0", "0"));
                let label = g
                    .split("class=\"label\"")
                    .nth(1)
                    .and_then(|s| s.split('>').nth(1))
                    .and_then(|s| s.split('<').next())
                    .unwrap_or("")
                    .to_string();
                (label, x.parse().unwrap_or(-1.0), y.parse().unwrap_or(-1.0))
            })
            .collect()
    }

    #[test]
    fn one_group_per_node_and_distinct_edge_columns_left_to_right() {
        let nodes = vec![node("a", 0), node("b", 1), node("c", 1), node("d", 5)];
        let edges = vec![edge(0, 1), edge(0, 2), edge(0, 2), edge(2, 3)];
        let svg = render(&nodes, &edges);
        assert_eq!(svg.matches("<g class=\"node ").count(), 4);
        assert_eq!(edge_groups(&svg), 3, "the repeated edge is drawn once");
        let b = boxes(&svg);
        let x = |l: &str| b.iter().find(|(n, _, _)| n == l).map(|(_, x, _)| *x).unwrap_or(-1.0);
        assert!(x("a") < x("b") && x("b") == x("c") && x("c") < x("d"), "{b:?}");
        // Layers 1 and 5 are adjacent columns: the gap collapses.
        assert!(x("d") - x("b") < 300.0, "{b:?}");
    }

    #[test]
    fn crossings_are_reduced() {
        // a -> y, b -> x with [a, b] and [x, y] in input order cross; y goes above x.
        let nodes = vec![node("a", 0), node("b", 0), node("x", 1), node("y", 1)];
        let svg = render(&nodes, &[edge(0, 3), edge(1, 2)]);
        let b = boxes(&svg);
        let y = |l: &str| b.iter().find(|(n, _, _)| n == l).map(|(_, _, y)| *y).unwrap_or(-1.0);
        assert!(y("a") < y("b"), "{b:?}");
        assert!(y("y") < y("x"), "{b:?}");
    }

    #[test]
    fn everything_is_escaped() {
        let mut n = node("<a&b \"c\" 'd'>", 0);
        n.href = Some("/node/x?a=1&b=<2>".into());
        let svg = render(&[n], &[]);
        assert!(svg.contains("&lt;a&amp;b &quot;c&quot; &#39;d&#39;&gt;"), "{svg}");
        assert!(svg.contains("href=\"/node/x?a=1&amp;b=&lt;2&gt;\""), "{svg}");
        assert!(!svg.contains("<a&b"), "{svg}");
    }

    #[test]
    fn back_edges_are_dashed_and_bad_indices_skipped() {
        let nodes = vec![node("a", 0), node("b", 1)];
        let mut back = edge(1, 0);
        back.label = "CALLS".into();
        let marked = GraphEdge { back: true, ..edge(0, 1) };
        let svg = render(&nodes, &[back, marked, edge(0, 7), edge(9, 1)]);
        assert_eq!(svg.matches("<g class=\"edge back\">").count(), 2, "{svg}");
        assert_eq!(svg.matches("stroke-dasharray=\"5 3\"").count(), 2, "{svg}");
        assert_eq!(edge_groups(&svg), 2, "{svg}");
    }

    #[test]
    fn self_loops_deterministic_output_and_empty_input() {
        let nodes = vec![node("a", 0), node("b", 1)];
        let edges = vec![edge(0, 0), edge(0, 1)];
        let once = render(&nodes, &edges);
        assert_eq!(once, render(&nodes, &edges));
        assert_eq!(edge_groups(&once), 2);
        let empty = render(&[], &[]);
        assert!(empty.contains("nothing to draw") && empty.starts_with("<svg"), "{empty}");
    }

    #[test]
    fn long_texts_are_cut_and_kept_whole_in_the_title() {
        let long = "x".repeat(60);
        let mut n = node(&long, 0);
        n.title = long.clone();
        let svg = render(&[n], &[]);
        let shown = format!("{}…", "x".repeat(MAX_LABEL - 1));
        assert!(svg.contains(&format!(">{shown}</text>")), "{svg}");
        assert!(svg.contains(&format!("<title>{long}</title>")), "{svg}");
    }

    #[test]
    fn large_graphs_stay_cheap() {
        let nodes: Vec<GraphNode> = (0..500).map(|i| node(&format!("n{i}"), i % 7)).collect();
        let edges: Vec<GraphEdge> = (0..2000).map(|i| edge(i % 500, (i * 7 + 3) % 500)).collect();
        let svg = render(&nodes, &edges);
        assert_eq!(svg.matches("<g class=\"node ").count(), 500);
    }
}
