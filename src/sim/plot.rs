//! `sim --plot FILE.svg`: the pictures of a run, drawn with plotters: a
//! histogram of hand length and bars of wins by position from the dealer,
//! drawn into a string.

use plotters::prelude::*;

use super::SimStats;
use super::report::{quantile, wilson};

/// The run's pictures as the text of an SVG file (written whole by the
/// caller, as every file unolab writes).
pub fn svg(stats: &SimStats, title: &str) -> Result<String, String> {
    let mut text = String::new();
    draw(stats, title, &mut text)?;
    Ok(text)
}

fn draw(stats: &SimStats, title: &str, text: &mut String) -> Result<(), String> {
    let failed = |e: &dyn std::fmt::Display| e.to_string();
    let root = SVGBackend::with_string(text, (960, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let root = root.titled(title, ("sans-serif", 18)).map_err(|e| failed(&e))?;
    let (left, right) = root.split_horizontally(560);

    let mut sorted = stats.turns.clone();
    sorted.sort_unstable();
    let top = quantile(&sorted, 0.99).max(10);
    let width = top.div_ceil(20).max(1);
    let mut bins = [0u32; 20];
    for &t in &sorted {
        bins[((t / width) as usize).min(19)] += 1;
    }
    let most = bins.iter().copied().max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(&left)
        .caption("hand length (turns)", ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d((0u32..20 * width).step(width).use_round().into_segmented(), 0u32..most + most / 10)
        .map_err(|e| failed(&e))?;
    chart.configure_mesh().x_desc("turns").y_desc("hands").draw().map_err(|e| failed(&e))?;
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(BLUE.mix(0.6).filled())
                .data(sorted.iter().map(|&t| ((t / width).min(19) * width, 1u32))),
        )
        .map_err(|e| failed(&e))?;

    let finished = stats.finished();
    let positions = stats.wins_by_position.len() as u32;
    let mut chart = ChartBuilder::on(&right)
        .caption("wins by position from the dealer (%)", ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(40)
        .build_cartesian_2d((1u32..positions + 1).into_segmented(), 0f64..100f64)
        .map_err(|e| failed(&e))?;
    chart.configure_mesh().x_desc("position (1 = first to play)").draw().map_err(|e| failed(&e))?;
    chart
        .draw_series(stats.wins_by_position.iter().enumerate().map(|(i, &wins)| {
            let rate = 100.0 * wins as f64 / finished.max(1) as f64;
            let x = SegmentValue::Exact(i as u32 + 1);
            let mut bar =
                Rectangle::new([(x.clone(), 0.0), (SegmentValue::Exact(i as u32 + 2), rate)], RED.mix(0.5).filled());
            bar.set_margin(0, 0, 8, 8);
            bar
        }))
        .map_err(|e| failed(&e))?;
    chart
        .draw_series(stats.wins_by_position.iter().enumerate().map(|(i, &wins)| {
            let (low, high) = wilson(wins, finished);
            let x = SegmentValue::CenterOf(i as u32 + 1);
            PathElement::new(vec![(x.clone(), 100.0 * low), (x, 100.0 * high)], BLACK.stroke_width(2))
        }))
        .map_err(|e| failed(&e))?;
    root.present().map_err(|e| failed(&e))
}
