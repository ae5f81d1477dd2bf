"""Results in the FreeCAD GUI: the plot panel and the exports (CSV, PNG plots, GIF/MP4 of
the 3-D view). Imported only when the GUI is up; each feature is a plain function
(``plot_panel.open_plot_panel``, ``export.export_csv``, ``export.export_plots``,
``export.export_view_animation``) that the commands and scripts call."""
