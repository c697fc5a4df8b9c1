//! `bench --plot`: the timing table as a picture, time against N on a log scale, one line per
//! algorithm, as the reference documents draw their ladders.

use plotters::prelude::*;

/// Colours of the lines, one per algorithm in column order (repeating after nine).
const COLOURS: [RGBColor; 9] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(23, 190, 207),
];

/// An SVG document plotting `series`: for each algorithm, its `(n, seconds)` points.
pub fn svg(series: &[(&str, Vec<(usize, f64)>)]) -> anyhow::Result<String> {
    let points = series.iter().flat_map(|(_, p)| p.iter());
    let (mut lo_n, mut hi_n, mut lo_t, mut hi_t) = (usize::MAX, 0, f64::MAX, 0f64);
    for &(n, t) in points {
        lo_n = lo_n.min(n);
        hi_n = hi_n.max(n);
        lo_t = lo_t.min(t);
        hi_t = hi_t.max(t);
    }
    if hi_n == 0 {
        anyhow::bail!("no cell was timed, so there is nothing to plot");
    }
    // A log axis needs positive bounds; a decade of margin each way keeps points off the frame.
    let (lo_t, hi_t) = ((lo_t.max(1e-9)) / 2.0, hi_t.max(1e-9) * 2.0);
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (800, 500)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "nqueens bench: time to count all solutions",
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(lo_n..hi_n.max(lo_n + 1), (lo_t..hi_t).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("N")
            .y_desc("seconds")
            .y_label_formatter(&|t| format!("{t:.0e}"))
            .draw()?;
        for (i, (name, points)) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    colour.stroke_width(2),
                ))?
                .label(*name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], colour));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(text)
}
