//! A line chart as hand-written SVG: one polyline per series over integer
//! x values (depths), the y axis on a log scale (nodes). Readable in any
//! browser; no drawing library.

use std::fmt::Write as _;

/// One line of the chart.
pub struct Series {
    /// Shown in the legend and as the polyline's `data-series`.
    pub name: String,
    /// (x, y) points in x order; y values below 1 are drawn at 1.
    pub points: Vec<(u32, f64)>,
    /// Drawn dashed (for the switch-off configurations).
    pub dashed: bool,
}

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 560.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
/// Distinct colours, reused in order when there are more series.
const PALETTE: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#000000", "#aec7e8",
];

/// The label of the power of ten `exp`: 1, 10, 100, 1k, ..., 1G, 1e12.
pub fn decade_label(exp: i32) -> String {
    match exp {
        0 => "1".into(),
        1 => "10".into(),
        2 => "100".into(),
        3..=11 => {
            let (unit, base) = match exp {
                3..=5 => ("k", 3),
                6..=8 => ("M", 6),
                _ => ("G", 9),
            };
            format!("{}{unit}", 10u64.pow((exp - base) as u32))
        }
        _ => format!("1e{exp}"),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart as an SVG document.
pub fn svg(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let points = || series.iter().flat_map(|s| s.points.iter());
    let x_min = points().map(|p| p.0).min().unwrap_or(1);
    let x_max = points().map(|p| p.0).max().unwrap_or(1).max(x_min + 1);
    let y_max = points().map(|p| p.1.max(1.0)).fold(10.0, f64::max);
    let y_min = points().map(|p| p.1.max(1.0)).fold(y_max, f64::min);
    let low = y_min.log10().floor() as i32;
    let high = (y_max.log10().ceil() as i32).max(low + 1);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x_at = |x: u32| LEFT + plot_w * f64::from(x - x_min) / f64::from(x_max - x_min);
    let y_at = |y: f64| {
        let exp = y.max(1.0).log10();
        TOP + plot_h * (1.0 - (exp - f64::from(low)) / f64::from(high - low))
    };

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="16">{}</text>"#,
        LEFT + plot_w / 2.0,
        escape(title)
    );
    // Decades: a grid line and a label each.
    for exp in low..=high {
        let y = y_at(10f64.powi(exp));
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/>"##,
            LEFT + plot_w
        );
        let _ = writeln!(
            out,
            r#"<text class="y-label" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT - 8.0,
            y + 4.0,
            decade_label(exp)
        );
    }
    for x in x_min..=x_max {
        let px = x_at(x);
        let _ = writeln!(
            out,
            r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{:.1}" stroke="#eeeeee"/>"##,
            TOP + plot_h
        );
        let _ = writeln!(
            out,
            r#"<text class="x-label" x="{px:.1}" y="{:.1}" text-anchor="middle">{x}</text>"#,
            TOP + plot_h + 18.0
        );
    }
    let _ = writeln!(
        out,
        r#"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 15.0,
        escape(x_label)
    );
    let _ = writeln!(
        out,
        r#"<text x="20" y="{:.1}" text-anchor="middle" transform="rotate(-90 20 {:.1})">{}</text>"#,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        escape(y_label)
    );
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let coords: Vec<String> = s
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", x_at(x), y_at(y)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline data-series="{}" points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            escape(&s.name),
            coords.join(" ")
        );
        // Markers, so that a series of one point still shows.
        for &(x, y) in &s.points {
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="{colour}"/>"#,
                x_at(x),
                y_at(y)
            );
        }
        let ly = TOP + 8.0 + 18.0 * i as f64;
        let lx = WIDTH - RIGHT + 15.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"{dash}/>"#,
            lx + 28.0
        );
        let _ = writeln!(
            out,
            r#"<text class="legend" x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 34.0,
            ly + 4.0,
            escape(&s.name)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_labelled_with_unit_prefixes() {
        let labels: Vec<String> = (0..=10).map(decade_label).collect();
        assert_eq!(
            labels,
            [
                "1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G", "10G"
            ]
        );
        assert_eq!(decade_label(12), "1e12");
    }

    #[test]
    fn names_are_escaped() {
        let chart = svg(
            "a < b & c",
            "x",
            "y",
            &[Series {
                name: "\"q\"".into(),
                points: vec![(1, 5.0)],
                dashed: false,
            }],
        );
        assert!(chart.contains("a &lt; b &amp; c"));
        assert!(chart.contains("data-series=\"&quot;q&quot;\""));
        assert!(!chart.contains("a < b"));
    }
}
