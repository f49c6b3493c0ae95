//! `sim --plot FILE.svg`: the pictures of a run, drawn with plotters into
//! a string. A panel per configuration (a sweep draws one for each): hand
//! length as a histogram and wins by position from the dealer as bars with
//! their Wilson intervals as whiskers; with `--vs` both sides in each
//! chart (A and B in two colours), and a third chart of the paired
//! differences, B - A with its 95% interval, as a share of A. Every axis
//! is fitted to what it shows (and the fair share of wins is drawn).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::report::{Paired, paired, quantile, wilson};
use super::{SimConfig, SimStats};

/// One panel: a configuration, or two compared on the same seeds.
pub struct Panel<'a> {
    pub title: String,
    pub a: (&'a SimConfig, &'a SimStats),
    pub b: Option<(&'a SimConfig, &'a SimStats)>,
}

/// Each side's colour: A, then B.
const COLORS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];

/// Bins of the histogram of hand length.
const BINS: u32 = 20;

/// The height of a panel, and of the run's title above them.
const PANEL: u32 = 380;
const TITLE: u32 = 36;

/// The pictures as the text of an SVG file (written whole by the caller,
/// as every file unolab writes): `title` over the panels, one under
/// another.
pub fn svg(title: &str, panels: &[Panel]) -> Result<String, String> {
    let mut text = String::new();
    let width = if panels.iter().any(|p| p.b.is_some()) { 1280 } else { 960 };
    let height = TITLE + PANEL * panels.len().max(1) as u32;
    {
        let root = SVGBackend::with_string(&mut text, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let root = root.titled(title, ("sans-serif", 18)).map_err(fail)?;
        let rows = root.split_evenly((panels.len().max(1), 1));
        for (panel, area) in panels.iter().zip(&rows) {
            draw_panel(panel, area)?;
        }
        root.present().map_err(fail)?;
    }
    Ok(text)
}

fn fail(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn draw_panel(panel: &Panel, area: &DrawingArea<SVGBackend, Shift>) -> Result<(), String> {
    let area = area.titled(&panel.title, ("sans-serif", 15)).map_err(fail)?;
    let sides: Vec<&SimStats> = std::iter::once(panel.a).chain(panel.b).map(|(_, stats)| stats).collect();
    match panel.b {
        None => {
            let (left, right) = area.split_horizontally(560);
            hand_length(&left, &sides)?;
            wins(&right, &sides)
        }
        Some(b) => {
            let (left, rest) = area.split_horizontally(470);
            let (middle, right) = rest.split_horizontally(390);
            hand_length(&left, &sides)?;
            wins(&middle, &sides)?;
            differences(&right, &paired(panel.a, b))
        }
    }
}

/// The names of the sides in legends.
fn side_name(index: usize, sides: usize) -> &'static str {
    match (sides, index) {
        (1, _) => "hands",
        (_, 0) => "A",
        _ => "B",
    }
}

/// Hand length: the share of hands in each of `BINS` bins up to the 99th
/// percentile of every side (the last bin open), a bar per side.
fn hand_length(area: &DrawingArea<SVGBackend, Shift>, sides: &[&SimStats]) -> Result<(), String> {
    let top = sides
        .iter()
        .map(|s| {
            let mut sorted = s.turns.clone();
            sorted.sort_unstable();
            quantile(&sorted, 0.99)
        })
        .max()
        .unwrap_or(0)
        .max(BINS);
    let width = top.div_ceil(BINS).max(1);
    let shares: Vec<Vec<f64>> = sides
        .iter()
        .map(|s| {
            let mut bins = vec![0u64; BINS as usize];
            for &t in &s.turns {
                bins[((t / width).min(BINS - 1)) as usize] += 1;
            }
            bins.iter().map(|&n| 100.0 * n as f64 / s.turns.len().max(1) as f64).collect()
        })
        .collect();
    let most = shares.iter().flatten().copied().fold(0.0, f64::max).max(1.0);
    let mut chart = ChartBuilder::on(area)
        .caption("hand length (turns)", ("sans-serif", 14))
        .margin(10)
        .x_label_area_size(32)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..f64::from(BINS * width), 0f64..most * 1.1)
        .map_err(fail)?;
    chart.configure_mesh().x_desc("turns (last bin: that many or more)").y_desc("% of hands").draw().map_err(fail)?;
    let bar = f64::from(width) / sides.len() as f64;
    for (index, side) in shares.iter().enumerate() {
        let color = COLORS[index];
        chart
            .draw_series(side.iter().enumerate().map(|(bin, &share)| {
                let x = f64::from(bin as u32 * width) + bar * index as f64;
                Rectangle::new([(x, 0.0), (x + bar, share)], color.mix(0.7).filled())
            }))
            .map_err(fail)?
            .label(side_name(index, sides.len()))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    if sides.len() > 1 {
        chart.configure_series_labels().border_style(BLACK).background_style(WHITE.mix(0.8)).draw().map_err(fail)?;
    }
    Ok(())
}

/// Wins by position from the dealer: a bar per side with its Wilson
/// interval as a whisker; the axis fits the intervals and the fair share
/// (a dashed line).
fn wins(area: &DrawingArea<SVGBackend, Shift>, sides: &[&SimStats]) -> Result<(), String> {
    let positions = sides.iter().map(|s| s.wins_by_position.len()).max().unwrap_or(0);
    let fair = 100.0 / positions.max(1) as f64;
    let intervals: Vec<Vec<(f64, f64, f64)>> = sides
        .iter()
        .map(|s| {
            let finished = s.finished();
            s.wins_by_position
                .iter()
                .map(|&w| {
                    let (low, high) = wilson(w, finished);
                    (100.0 * w as f64 / finished.max(1) as f64, 100.0 * low, 100.0 * high)
                })
                .collect()
        })
        .collect();
    let low = intervals.iter().flatten().map(|i| i.1).fold(fair, f64::min);
    let high = intervals.iter().flatten().map(|i| i.2).fold(fair, f64::max);
    let pad = ((high - low) * 0.1).max(0.5);
    let (bottom, top) = ((low - pad).max(0.0), (high + pad).min(100.0));
    let mut chart = ChartBuilder::on(area)
        .caption("wins by position from the dealer (%)", ("sans-serif", 14))
        .margin(10)
        .x_label_area_size(32)
        .y_label_area_size(44)
        .build_cartesian_2d(0.5f64..positions as f64 + 0.5, bottom..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_labels(positions)
        .x_label_formatter(&|x| format!("{}", x.round()))
        .x_desc("position (1 = first to play)")
        .y_desc("% of hands won")
        .draw()
        .map_err(fail)?;
    let bar = 0.7 / sides.len() as f64;
    for (index, side) in intervals.iter().enumerate() {
        let color = COLORS[index];
        let left = |p: usize| p as f64 + 1.0 - 0.35 + bar * index as f64;
        chart
            .draw_series(side.iter().enumerate().map(|(p, &(rate, _, _))| {
                Rectangle::new([(left(p), bottom), (left(p) + bar, rate)], color.mix(0.5).filled())
            }))
            .map_err(fail)?
            .label(side_name(index, sides.len()))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        chart
            .draw_series(side.iter().enumerate().map(|(p, &(_, low, high))| {
                let x = left(p) + bar / 2.0;
                PathElement::new(vec![(x, low), (x, high)], BLACK.stroke_width(2))
            }))
            .map_err(fail)?;
    }
    // Dashes along the fair share.
    let dashes = (0..positions * 8).map(|i| {
        let x = 0.5 + i as f64 / 8.0;
        PathElement::new(vec![(x, fair), (x + 1.0 / 16.0, fair)], BLACK.mix(0.6))
    });
    chart
        .draw_series(dashes)
        .map_err(fail)?
        .label("fair share")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 10, y)], BLACK.mix(0.6)));
    chart.configure_series_labels().border_style(BLACK).background_style(WHITE.mix(0.8)).draw().map_err(fail)?;
    Ok(())
}

/// The figures the differences chart shows: length, points, wins by
/// position and the race.
fn shown(figure: &Paired) -> bool {
    figure.key.starts_with("wins.")
        || ["turns", "points", "lead_changes", "first_to_one_wins", "comebacks", "margin", "chain"]
            .contains(&figure.key.as_str())
}

/// The paired differences: B - A as a share of A (%), with the 95%
/// interval as a whisker, a row per figure; zero is a line.
fn differences(area: &DrawingArea<SVGBackend, Shift>, figures: &[Paired]) -> Result<(), String> {
    let rows: Vec<(String, f64, f64, f64)> = figures
        .iter()
        .filter(|f| shown(f) && f.a != 0.0)
        .map(|f| {
            let scale = 100.0 / f.a.abs();
            (f.key.clone(), f.difference.mean * scale, f.difference.low * scale, f.difference.high * scale)
        })
        .collect();
    let low = rows.iter().map(|r| r.2).fold(0.0, f64::min);
    let high = rows.iter().map(|r| r.3).fold(0.0, f64::max);
    let pad = ((high - low) * 0.1).max(0.5);
    let n = rows.len().max(1);
    let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption("B - A, % of A (95% interval)", ("sans-serif", 14))
        .margin(10)
        .x_label_area_size(32)
        .y_label_area_size(120)
        .build_cartesian_2d(low - pad..high + pad, (0..n as i32).into_segmented())
        .map_err(fail)?;
    chart
        .configure_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => names.get(*i as usize).cloned().unwrap_or_default(),
            SegmentValue::Last => String::new(),
        })
        .x_desc("% of A")
        .draw()
        .map_err(fail)?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Last)],
            BLACK.stroke_width(1),
        )))
        .map_err(fail)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = SegmentValue::CenterOf(i as i32);
            PathElement::new(vec![(r.2, y.clone()), (r.3, y)], COLORS[1].stroke_width(2))
        }))
        .map_err(fail)?;
    chart
        .draw_series(
            rows.iter()
                .enumerate()
                .map(|(i, r)| Circle::new((r.1, SegmentValue::CenterOf(i as i32)), 4, COLORS[1].filled())),
        )
        .map_err(fail)?;
    Ok(())
}
