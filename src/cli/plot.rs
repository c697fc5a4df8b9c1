//! `bench --plot`: the timing table as a picture for a lesson, time against N on a log scale, one
//! line per algorithm, as the reference documents draw their ladders.
//!
//! The SVG is written by hand: each line is a group (`<g class="series" data-algo=..>`) with its
//! polyline, markers and end label, so a test (or a reader of the file) can find them; dash
//! patterns, label nudging and unit ticks would have to be computed here with a plotting crate
//! too.

use std::fmt::Write;

/// The line colours, one per algorithm in column order (repeating after nine). Each has at least
/// 4.5:1 contrast against white (WCAG), so a line, its markers and its end label, which is text,
/// stay readable on a projector and in print.
pub const COLOURS: [&str; 9] = [
    "#0072B2", "#C04A00", "#117733", "#AA3377", "#5E3C99", "#8C510A", "#C0143C", "#4D4D4D",
    "#00727A",
];

/// Dash patterns (`stroke-dasharray`): solid, dashed, dotted, so that colour is not the only cue.
const DASHES: [&str; 3] = ["", "9 4", "2 3"];

/// Marker shapes; the first five filled, then again hollow, so nine lines get nine markers.
const MARKERS: usize = 5;

/// The smallest text: tick labels and end labels (px).
const TEXT: f64 = 14.0;
/// Axis titles and the note under the title (px).
const AXIS: f64 = 15.0;
/// The title (px).
const TITLE: f64 = 18.0;
/// A rough width of a character of sans-serif text, as a fraction of its size: enough to keep
/// labels apart and inside the picture.
const CHAR_WIDTH: f64 = 0.62;
/// The text colour (about 16:1 against white).
const INK: &str = "#222222";

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 520.0;

/// An SVG document plotting `series`: for each algorithm, its `(n, seconds)` points; `note` is
/// printed under the title (how the points were measured).
pub fn svg(series: &[(&str, Vec<(usize, f64)>)], note: &str) -> anyhow::Result<String> {
    let points = || series.iter().flat_map(|(_, p)| p.iter().copied());
    let Some(lo_n) = points().map(|(n, _)| n).min() else {
        anyhow::bail!("no cell was timed, so there is nothing to plot");
    };
    let hi_n = points().map(|(n, _)| n).max().unwrap_or(lo_n);
    // A log axis needs positive times; a measured 0 (below the clock's resolution) sits at 1 ns.
    let time = |t: f64| t.max(1e-9);
    let lo_t = points().map(|(_, t)| time(t)).fold(f64::MAX, f64::min);
    let hi_t = points().map(|(_, t)| time(t)).fold(0.0, f64::max);

    // Whole decades, so the ticks are round numbers of a unit.
    let lo_dec = lo_t.log10().floor();
    let hi_dec = hi_t.log10().ceil().max(lo_dec + 1.0);
    let (lo_x, hi_x) = if lo_n == hi_n {
        (lo_n as f64 - 0.5, hi_n as f64 + 0.5)
    } else {
        (lo_n as f64, hi_n as f64)
    };

    let widest = series
        .iter()
        .filter(|(_, p)| !p.is_empty())
        .map(|(name, _)| text_width(name, TEXT))
        .fold(0.0, f64::max);
    let frame = Frame {
        left: 86.0,
        right: WIDTH - 24.0 - widest.max(40.0),
        top: 70.0,
        bottom: HEIGHT - 58.0,
    };
    // Points stay a little inside the frame.
    let pad = 12.0;
    let x_of = |n: f64| {
        frame.left + pad + (n - lo_x) / (hi_x - lo_x) * (frame.right - frame.left - 2.0 * pad)
    };
    let y_of = |t: f64| {
        frame.top
            + pad
            + (hi_dec - time(t).log10()) / (hi_dec - lo_dec)
                * (frame.bottom - frame.top - 2.0 * pad)
    };

    let mut s = String::new();
    let summary: Vec<String> = series
        .iter()
        .filter_map(|(name, p)| {
            let &(n, t) = p.iter().max_by_key(|(n, _)| *n)?;
            Some(format!("{name} {} at N = {n}", time_label(t)))
        })
        .collect();
    writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="title desc" font-family="sans-serif">"##
    )?;
    writeln!(
        s,
        "<title id=\"title\">nqueens bench: time to count all solutions</title>\n\
         <desc id=\"desc\">Time against N on a log scale, one line per algorithm. Last points: {}.</desc>",
        escape(&summary.join("; "))
    )?;
    writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##)?;
    text(
        &mut s,
        (WIDTH / 2.0, 26.0),
        TITLE,
        INK,
        "middle",
        "nqueens bench: time to count all solutions",
    )?;
    text(&mut s, (WIDTH / 2.0, 48.0), AXIS, INK, "middle", note)?;

    // Grid and ticks.
    writeln!(s, r##"<g class="grid" stroke="#dddddd" stroke-width="1">"##)?;
    let y_ticks = y_ticks(lo_dec, hi_dec);
    for &t in &y_ticks {
        let y = y_of(t);
        writeln!(
            s,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"#,
            frame.left, frame.right
        )?;
    }
    let x_ticks = x_ticks(lo_x, hi_x);
    for &n in &x_ticks {
        let x = x_of(n as f64);
        writeln!(
            s,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}"/>"#,
            frame.top, frame.bottom
        )?;
    }
    writeln!(s, "</g>")?;
    writeln!(
        s,
        r##"<rect class="frame" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#333333" stroke-width="1"/>"##,
        frame.left,
        frame.top,
        frame.right - frame.left,
        frame.bottom - frame.top
    )?;
    writeln!(s, r#"<g class="ticks y">"#)?;
    for &t in &y_ticks {
        text(
            &mut s,
            (frame.left - 8.0, y_of(t)),
            TEXT,
            INK,
            "end",
            &time_label(t),
        )?;
    }
    writeln!(s, "</g>\n<g class=\"ticks x\">")?;
    for &n in &x_ticks {
        text(
            &mut s,
            (x_of(n as f64), frame.bottom + 16.0),
            TEXT,
            INK,
            "middle",
            &n.to_string(),
        )?;
    }
    writeln!(s, "</g>")?;
    text(
        &mut s,
        ((frame.left + frame.right) / 2.0, HEIGHT - 14.0),
        AXIS,
        INK,
        "middle",
        "N (board size)",
    )?;
    let (yx, yy) = (22.0, (frame.top + frame.bottom) / 2.0);
    writeln!(
        s,
        r#"<text x="{yx}" y="{yy:.1}" font-size="{AXIS}" fill="{INK}" text-anchor="middle" dominant-baseline="central" transform="rotate(-90 {yx} {yy:.1})">time per count (log scale)</text>"#
    )?;

    // The lines, then their end labels nudged apart.
    let mut labels = Vec::new();
    for (i, (name, points)) in series.iter().enumerate() {
        let mut points = points.clone();
        points.sort_by_key(|&(n, _)| n);
        let Some(&(last_n, last_t)) = points.last() else {
            continue;
        };
        let colour = COLOURS[i % COLOURS.len()];
        let dash = DASHES[i % DASHES.len()];
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{dash}""#)
        };
        writeln!(s, r#"<g class="series" data-algo="{}">"#, escape(name))?;
        let xy: Vec<String> = points
            .iter()
            .map(|&(n, t)| format!("{:.1},{:.1}", x_of(n as f64), y_of(t)))
            .collect();
        writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"{dash}/>"#,
            xy.join(" ")
        )?;
        for &(n, t) in &points {
            marker(&mut s, i, colour, x_of(n as f64), y_of(t))?;
        }
        writeln!(s, "</g>")?;
        labels.push(Label {
            series: i,
            name,
            colour,
            anchor: (x_of(last_n as f64), y_of(last_t)),
            // Past the frame for the lines that reach the last N.
            x: x_of(last_n as f64) + pad + 8.0,
            width: text_width(name, TEXT),
            y: y_of(last_t),
        });
    }
    nudge(
        &mut labels,
        TEXT + 3.0,
        (frame.top + TEXT / 2.0, frame.bottom),
    );
    writeln!(s, r#"<g class="end-labels">"#)?;
    for l in &labels {
        let (ax, ay) = l.anchor;
        if (l.y - ay).abs() > 3.0 {
            // A nudged label keeps a thin lead to its line's end.
            writeln!(
                s,
                r#"<line x1="{:.1}" y1="{ay:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="1"/>"#,
                ax + 6.0,
                l.x - 2.0,
                l.y,
                l.colour
            )?;
        }
        writeln!(
            s,
            r##"<text class="end-label" data-series="{}" x="{:.1}" y="{:.1}" font-size="{TEXT}" fill="{}" stroke="#ffffff" stroke-width="3" paint-order="stroke" dominant-baseline="central">{}</text>"##,
            l.series,
            l.x,
            l.y,
            l.colour,
            escape(l.name)
        )?;
    }
    writeln!(s, "</g>\n</svg>")?;
    Ok(s)
}

/// The plotting area, in pixels.
struct Frame {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

/// A line's name, placed right of its last point.
#[derive(Debug)]
struct Label<'a> {
    series: usize,
    name: &'a str,
    colour: &'a str,
    /// The line's last point.
    anchor: (f64, f64),
    x: f64,
    width: f64,
    /// The centre of the text; [`nudge`] moves it.
    y: f64,
}

/// Moves labels up or down, as little as possible, so that no two whose spans across the picture
/// overlap are closer than `gap`, and all stay within `bounds` (top, bottom).
///
/// Labels that could touch form a column; within a column, sorted by height, neighbours that
/// crowd each other merge into a block centred on its members' wishes (the least squares
/// placement), and a block is then kept inside the bounds.
fn nudge(labels: &mut [Label], gap: f64, (top, bottom): (f64, f64)) {
    let n = labels.len();
    // Columns: labels joined when their horizontal spans overlap (transitively).
    let mut column: Vec<usize> = (0..n).collect();
    for i in 0..n {
        for j in 0..i {
            let (a, b) = (&labels[i], &labels[j]);
            if a.x < b.x + b.width && b.x < a.x + a.width {
                let (ci, cj) = (column[i], column[j]);
                for c in &mut column {
                    if *c == ci {
                        *c = cj;
                    }
                }
            }
        }
    }
    let mut columns: Vec<usize> = column.clone();
    columns.sort_unstable();
    columns.dedup();
    for c in columns {
        let mut members: Vec<usize> = (0..n).filter(|&i| column[i] == c).collect();
        members.sort_by(|&a, &b| labels[a].y.total_cmp(&labels[b].y));
        // Blocks of consecutive members: (first member's index in `members`, count, top).
        let mut blocks: Vec<(usize, usize, f64)> = Vec::new();
        for (k, &i) in members.iter().enumerate() {
            blocks.push((k, 1, labels[i].y));
            while blocks.len() > 1 {
                let (_, count, top_b) = blocks[blocks.len() - 1];
                let (first_a, count_a, top_a) = blocks[blocks.len() - 2];
                if top_a + count_a as f64 * gap <= top_b {
                    break;
                }
                blocks.pop();
                let count = count_a + count;
                let mean = (0..count)
                    .map(|j| labels[members[first_a + j]].y - j as f64 * gap)
                    .sum::<f64>()
                    / count as f64;
                *blocks.last_mut().expect("two blocks were there") = (first_a, count, mean);
            }
        }
        // Inside the bounds, pushing from the top down, then from the bottom up.
        let mut floor = top;
        for block in &mut blocks {
            block.2 = block.2.max(floor);
            floor = block.2 + block.1 as f64 * gap;
        }
        let mut ceiling = bottom;
        for block in blocks.iter_mut().rev() {
            block.2 = block.2.min(ceiling - (block.1 - 1) as f64 * gap);
            ceiling = block.2 - gap;
        }
        for (first, count, top_b) in blocks {
            for j in 0..count {
                labels[members[first + j]].y = top_b + j as f64 * gap;
            }
        }
    }
}

/// Draws series `i`'s marker at `(x, y)`: one of five shapes, filled for the first five series,
/// hollow (white inside) for the next five.
fn marker(s: &mut String, i: usize, colour: &str, x: f64, y: f64) -> std::fmt::Result {
    let fill = if (i / MARKERS).is_multiple_of(2) {
        colour
    } else {
        "#ffffff"
    };
    let style = format!(r#"fill="{fill}" stroke="{colour}" stroke-width="1.5""#);
    let r = 4.5;
    match i % MARKERS {
        0 => writeln!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}" {style}/>"#),
        1 => writeln!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" {style}/>"#,
            x - r * 0.85,
            y - r * 0.85,
            r * 1.7,
            r * 1.7
        ),
        shape => {
            let corners: &[(f64, f64)] = match shape {
                2 => &[(0.0, -1.2), (1.1, 0.8), (-1.1, 0.8)],
                3 => &[(0.0, -1.25), (1.0, 0.0), (0.0, 1.25), (-1.0, 0.0)],
                _ => &[(0.0, 1.2), (1.1, -0.8), (-1.1, -0.8)],
            };
            let points: Vec<String> = corners
                .iter()
                .map(|(dx, dy)| format!("{:.1},{:.1}", x + dx * r, y + dy * r))
                .collect();
            writeln!(s, r#"<polygon points="{}" {style}/>"#, points.join(" "))
        }
    }
}

/// Writes one line of text centred vertically on `(x, y)`.
fn text(
    s: &mut String,
    (x, y): (f64, f64),
    size: f64,
    fill: &str,
    anchor: &str,
    words: &str,
) -> std::fmt::Result {
    writeln!(
        s,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" dominant-baseline="central">{}</text>"#,
        escape(words)
    )
}

fn text_width(words: &str, size: f64) -> f64 {
    words.chars().count() as f64 * size * CHAR_WIDTH
}

fn escape(words: &str) -> String {
    words
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Tick values of the time axis from 10^`lo` to 10^`hi` seconds: each decade, and 2 and 5 times
/// it when the axis spans two decades or fewer.
fn y_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (lo, hi) = (lo as i32, hi as i32);
    let steps: &[f64] = if hi - lo <= 2 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let mut ticks = Vec::new();
    for k in lo..=hi {
        for &m in steps {
            if k < hi || m == 1.0 {
                ticks.push(m * 10f64.powi(k));
            }
        }
    }
    ticks
}

/// Tick values of the N axis: every N, or every 2nd, 5th, 10th... so that at most 16 show.
fn x_ticks(lo: f64, hi: f64) -> Vec<usize> {
    let (first, last) = (lo.ceil() as usize, hi.floor() as usize);
    let step = [1, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|&step| (last - first) / step < 16)
        .unwrap_or(100);
    (first..=last).filter(|n| n % step == 0).collect()
}

/// A time in the unit its size calls for: `250 µs`, `1.5 ms`, `10 s` (at most 3 significant
/// figures, no trailing zeros).
pub fn time_label(seconds: f64) -> String {
    // A value that rounds up to 1000 of a unit is 1 of the next.
    let (value, unit) = if seconds < 0.9995e-3 {
        (seconds * 1e6, "µs")
    } else if seconds < 0.9995 {
        (seconds * 1e3, "ms")
    } else {
        (seconds, "s")
    };
    let digits = if value >= 99.95 {
        0
    } else if value >= 9.995 {
        1
    } else {
        2
    };
    let number = format!("{value:.digits$}");
    let number = if number.contains('.') {
        number.trim_end_matches('0').trim_end_matches('.')
    } else {
        &number
    };
    format!("{number} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG 2 contrast of `#rrggbb` against white.
    fn contrast_on_white(colour: &str) -> f64 {
        let channel = |i: usize| {
            let c = f64::from(u8::from_str_radix(&colour[i..i + 2], 16).unwrap()) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
        1.05 / (luminance + 0.05)
    }

    #[test]
    fn every_colour_reads_on_white() {
        // The reference values of the WCAG formula.
        assert!((contrast_on_white("#000000") - 21.0).abs() < 1e-9);
        assert!((contrast_on_white("#777777") - 4.48).abs() < 0.01);
        for colour in COLOURS {
            // 3:1 for lines and markers; 4.5:1 because the end labels are text in that colour.
            assert!(contrast_on_white(colour) >= 4.5, "{colour}");
        }
        assert!(contrast_on_white(INK) >= 7.0);
        // Nine lines, nine colours.
        let mut distinct = COLOURS.to_vec();
        distinct.dedup();
        assert_eq!(distinct.len(), COLOURS.len());
    }

    #[test]
    fn times_are_labelled_in_the_unit_of_their_size() {
        let cases = [
            (1e-7, "0.1 µs"),
            (2.5e-6, "2.5 µs"),
            (1e-4, "100 µs"),
            (1e-3, "1 ms"),
            (0.99999e-3, "1 ms"),
            (99.96e-3, "100 ms"),
            (0.0123, "12.3 ms"),
            (0.5, "500 ms"),
            (1.0, "1 s"),
            (20.0, "20 s"),
            (1234.0, "1234 s"),
        ];
        for (t, label) in cases {
            assert_eq!(time_label(t), label);
        }
    }

    #[test]
    fn ticks_are_round() {
        let labels: Vec<String> = y_ticks(-3.0, -2.0).into_iter().map(time_label).collect();
        assert_eq!(labels, ["1 ms", "2 ms", "5 ms", "10 ms"]);
        let labels: Vec<String> = y_ticks(-7.0, 1.0).into_iter().map(time_label).collect();
        assert_eq!(
            labels,
            [
                "0.1 µs", "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s", "10 s"
            ]
        );
        assert_eq!(x_ticks(4.0, 16.0), (4..=16).collect::<Vec<_>>());
        assert_eq!(x_ticks(1.0, 28.0), (2..=28).step_by(2).collect::<Vec<_>>());
        assert_eq!(x_ticks(7.5, 8.5), [8]);
    }

    fn label(y: f64, x: f64) -> Label<'static> {
        Label {
            series: 0,
            name: "flags",
            colour: COLOURS[0],
            anchor: (x - 10.0, y),
            x,
            width: 50.0,
            y,
        }
    }

    #[test]
    fn crowded_labels_move_apart_and_stay_inside() {
        // Five labels wanting the same height, one apart from them, one close below the bottom.
        let mut labels: Vec<Label> = [200.0, 200.0, 200.0, 201.0, 199.0]
            .into_iter()
            .map(|y| label(y, 500.0))
            .chain([label(200.0, 100.0), label(395.0, 520.0)])
            .collect();
        nudge(&mut labels, 17.0, (50.0, 400.0));
        for (i, a) in labels.iter().enumerate() {
            assert!((50.0..=400.0).contains(&a.y), "{a:?}");
            for b in &labels[..i] {
                if a.x < b.x + b.width && b.x < a.x + a.width {
                    assert!((a.y - b.y).abs() >= 17.0 - 1e-9, "{a:?} {b:?}");
                }
            }
        }
        // The crowd spreads about where it wanted to be; the one apart does not move.
        let crowd: f64 = labels[..5].iter().map(|l| l.y).sum::<f64>() / 5.0;
        assert!((crowd - 200.0).abs() < 20.0, "{crowd}");
        assert_eq!(labels[5].y, 200.0);
        // Labels that already stand apart stay where they are.
        let mut apart = vec![label(100.0, 500.0), label(150.0, 500.0)];
        nudge(&mut apart, 17.0, (50.0, 400.0));
        assert_eq!((apart[0].y, apart[1].y), (100.0, 150.0));
    }

    #[test]
    fn a_figure_of_one_point_and_of_none() {
        let one = svg(&[("flags", vec![(8, 1e-4)])], "one run").unwrap();
        assert!(one.contains(">flags</text>") && one.contains("100 µs"));
        assert!(svg(&[("flags", vec![])], "").is_err());
    }
}
