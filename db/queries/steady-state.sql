-- Steady-state outcomes (hb.steady) of every run: attained, rounds, window, excursions
-- params: none
-- Excursions as % of the window's mean, beside their limits; first_step
-- and last_step are the seqs of the first and last round's steps.
SELECT r.id AS run_id, r.label, s.name, s.attained, s.rounds, s.window_first, s.window_last,
       s.track, s.mean, s.slope,
       s.data_excursion / s.mean * 100 AS data_excursion_pct,
       s.max_data_excursion * 100 AS max_data_excursion_pct,
       s.slope_excursion / s.mean * 100 AS slope_excursion_pct,
       s.max_slope_excursion * 100 AS max_slope_excursion_pct,
       f.seq AS first_step, l.seq AS last_step
FROM steady_state s JOIN runs r ON r.id = s.run_id
LEFT JOIN steps f ON f.id = s.first_step_id
LEFT JOIN steps l ON l.id = s.last_step_id
ORDER BY s.run_id, s.id;
