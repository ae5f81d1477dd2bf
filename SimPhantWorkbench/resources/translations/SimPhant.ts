<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS><TS version="1.1">
<context>
    <name>SimPhant</name>
    <message>
        <location filename="InitGui.py" line="19"/>
        <source>Rigid multibody dynamics: motion studies with real mass and inertia</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_body_drivers.py" line="30"/>
        <source>Select %d element(s) in the 3D view first: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_body_drivers.py" line="48"/>
        <source>Select in the 3D view: %s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_couplers.py" line="38"/>
        <source>Select the joints of the active study first (%s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_drivers.py" line="42"/>
        <source>Select a joint of the active study first (%s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="113"/>
        <source>Loads to FEM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="48"/>
        <source>A time in s (0.25), frame:N, or peak:SIGNAL where a result quantity peaks, e.g. peak:reaction(Joint) or peak:angular_acceleration(Body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="51"/>
        <source> mm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="52"/>
        <source>from the part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="45"/>
        <source>Body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="54"/>
        <source>Instant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="55"/>
        <source>Element size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="81"/>
        <source>SimPhant: could not show the stresses: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_forces.py" line="68"/>
        <source>Select a vertex, circle or face on each of two bodies first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_forces.py" line="70"/>
        <source>Select an element of each of the two bodies first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_forces.py" line="71"/>
        <source>Select the joint first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_forces.py" line="85"/>
        <source>Select exactly two elements (a vertex, circle or face) on two bodies of study &apos;%s&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_forces.py" line="94"/>
        <source>Select the joint the %s acts on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_joints.py" line="34"/>
        <source>%s joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="34"/>
        <source>New SimPhant study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="73"/>
        <source>Select one or more parts that are not yet bodies of study &apos;%s&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="109"/>
        <source>&apos;%s&apos; is not in the active study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="121"/>
        <source>Select a moving body of study &apos;%s&apos; (or a vertex, edge or face of it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="181"/>
        <source>Make a study from a FreeCAD Assembly&apos;s parts and joints. Needs FreeCAD 1.0 or newer (its Assembly workbench); this is FreeCAD %s.%s, so the command is disabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="18"/>
        <source>Study &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="47"/>
        <source>The study cannot be solved as it is:
%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="50"/>
        <source>SimPhant: check &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="82"/>
        <source>Accept current elements of %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_result.py" line="36"/>
        <source>Play back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_sweep.py" line="44"/>
        <source>Study &apos;%s&apos; has no moving body to vary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="69"/>
        <source>%s (study &apos;%s&apos;):
%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="79"/>
        <source>Not available: %s. %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="133"/>
        <source>SimPhant: wrote %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="271"/>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="153"/>
        <source>Export CSV of &apos;%s&apos; into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="169"/>
        <source>Export plots of &apos;%s&apos; into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="188"/>
        <source>Export animation of &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="198"/>
        <source> x real time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="199"/>
        <source>Width [px]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="200"/>
        <source>Height [px]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="201"/>
        <source>Frames per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="143"/>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="221"/>
        <source>Save animation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="222"/>
        <source>Video (*.mp4 *.gif)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="228"/>
        <source>SimPhant: wrote %s (%d frames)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="168"/>
        <source>There is no active study.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="170"/>
        <source>Select %s of study &apos;%s&apos; in the tree.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="171"/>
        <source>one joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="172"/>
        <source>%d joints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="176"/>
        <source>Joint &apos;%s&apos; is not in the active study &apos;%s&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="179"/>
        <source>Joint &apos;%s&apos; is %s: a %s needs one of the joint kinds %s there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="223"/>
        <source>&apos;%s&apos; is already body &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="226"/>
        <source>&apos;%s&apos; has no placement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="235"/>
        <source>&apos;%s&apos; has no solid, so no mass: a moving body needs one (a sketch or datum part can be a fixed body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="329"/>
        <source>the task panel of &apos;%s&apos; did not open (see the Report view); nothing was added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="common.py" line="392"/>
        <source>Not available: %s (SimPhant &gt; Check dependencies says how to install it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="dependencies.py" line="53"/>
        <source>SimPhant: the solver cannot run: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="dependencies.py" line="72"/>
        <source>SimPhant: dependencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="dependencies.py" line="73"/>
        <source>SimPhant: dependencies missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="dependencies.py" line="76"/>
        <source>&lt;b&gt;Everything the solver needs is installed.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="dependencies.py" line="80"/>
        <source>&lt;b&gt;SimPhant cannot solve: %s.&lt;/b&gt;&lt;br&gt;The workbench works otherwise (modelling, opening documents). Install what is missing with the commands below, in a terminal, with FreeCAD closed; then start FreeCAD again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="dependencies.py" line="95"/>
        <source>Copy commands</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="182"/>
        <source>SimPhant: solver kernels for block size %d%s compiled in %.0f s (cached for later sessions)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="189"/>
        <source>SimPhant: could not prepare the solver kernels (%s); they are prepared when a study is solved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="199"/>
        <source> (the faster fixed-step loop, used from the next solve)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="199"/>
        <source> (adaptive integrators)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="208"/>
        <source>joint block size %d%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="209"/>
        <source>, adaptive integrators</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="213"/>
        <source>loading the solver kernels from the cache (%s): %.0f s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="216"/>
        <source>compiling the solver kernels, first use on this computer (%s): %.0f s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="220"/>
        <source>, about %.0f s left (%.0f s measured here before)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="kernel_warmup.py" line="247"/>
        <source>SimPhant: solver kernels ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="outdated.py" line="54"/>
        <source>Outdated: the model changed after this result was computed (%s). Solve again for results of the model as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="outdated.py" line="78"/>
        <source>Outdated result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="outdated.py" line="80"/>
        <source>The result of &apos;%s&apos; is outdated because the model changed after it was computed (%s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="outdated.py" line="81"/>
        <source>%s anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="outdated.py" line="83"/>
        <source>Solve again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="picking_aids.py" line="151"/>
        <source>Select the parts to keep shown first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="54"/>
        <source>%.1f s compiling the solver kernels (first use on this computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="55"/>
        <source>%.2f s loading the solver kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="56"/>
        <source> (of which %s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="243"/>
        <source>SimPhant: cannot solve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="130"/>
        <source>Cancelling ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="134"/>
        <source>SimPhant: solving &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="144"/>
        <source>First run in this session: the solver&apos;s kernels are loaded from numba&apos;s cache; on their first use on this computer they are compiled first (the line below says which, and how long).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="119"/>
        <source>remaining ~%.0f s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="121"/>
        <source>remaining: estimating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="169"/>
        <source>t = %.4g s of %.4g s   elapsed %.1f s   %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="207"/>
        <source>Study &apos;%s&apos; solved: %d frames, %.2f s wall time%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="215"/>
        <source>SimPhant: study &apos;%s&apos;: warning: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="220"/>
        <source>SimPhant: cannot store the result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="226"/>
        <source>SimPhant: solving &apos;%s&apos; cancelled; the document is unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="232"/>
        <source>SimPhant: the simulation failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="235"/>
        <source>Keep the partial result (%d frames up to t = %.4g s) for playback?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="265"/>
        <source>%d warning(s): see the Report view.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="solve_job.py" line="277"/>
        <source>Solved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="viewer.py" line="18"/>
        <source>Study &apos;%s&apos; has no result yet: run it first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="export.py" line="36"/>
        <source>&apos;%s&apos; is not a directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="export.py" line="47"/>
        <source>(outdated: the model changed after the run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="export.py" line="74"/>
        <source>%d frames, %.3g s of video for %.3g s of motion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="export.py" line="95"/>
        <source>frame size %dx%d is too small</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="export.py" line="101"/>
        <source>document &apos;%s&apos; has no 3-D view to record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="44"/>
        <source>Interference: %d pairs checked, %d left out (joints, fixed), deflection %s mm, %d distance queries, %.3g s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="51"/>
        <source>  %s - %s interfere from %s s to %s s, up to %s mm deep at %s s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="57"/>
        <source>  no interference; smallest clearance %s mm (%s - %s at %s s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="60"/>
        <source>  the search stopped early for some pairs: the figures are those found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="69"/>
        <source>Body A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="69"/>
        <source>Body B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="70"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="70"/>
        <source>From [s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="71"/>
        <source>To [s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="72"/>
        <source>Max depth [mm]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="73"/>
        <source>At [s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="74"/>
        <source>Min clearance [mm]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="93"/>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="96"/>
        <source>Move the bodies to the output frame nearest to the row&apos;s instant and select the two bodies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="107"/>
        <source>interference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="112"/>
        <source>clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="116"/>
        <source>left out: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="173"/>
        <source>SimPhant: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference.py" line="181"/>
        <source>SimPhant interference: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="interference_view.py" line="259"/>
        <source>%s - %s interfere from %.4g s to %.4g s, up to %.4g mm deep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="67"/>
        <source>Joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="60"/>
        <source>Point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="48"/>
        <source>Force element</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="51"/>
        <source>Driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="119"/>
        <source>PlotPanel needs a study or a result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="613"/>
        <source>SimPhant plot: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="147"/>
        <source>SimPhant plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="36"/>
        <source>Quantity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="175"/>
        <source>Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="178"/>
        <source>Preferences (%s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="182"/>
        <source>Units</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="187"/>
        <source>Objects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="193"/>
        <source>From selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="195"/>
        <source>Plot the bodies / joints selected in the tree or the 3-D view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="198"/>
        <source>Add picked vertex</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="201"/>
        <source>Add the vertex selected in the 3-D view as a point of its body (point position / velocity)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="208"/>
        <source>Export the curves shown as %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="264"/>
        <source>|mag|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="293"/>
        <source>unknown quantity %r</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="303"/>
        <source>%s has no frame %r</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="308"/>
        <source>unknown unit system %r</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="343"/>
        <source>&apos;%s&apos; is not a moving body of the result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="477"/>
        <source>%s on body 2, %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="481"/>
        <source>time [s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="499"/>
        <source>(outdated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="551"/>
        <source>no curves to export: pick an object and a component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="plot_panel.py" line="563"/>
        <source>Export plot as %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="28"/>
        <source>line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="29"/>
        <source>scatter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="30"/>
        <source>heat map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="33"/>
        <source>Pareto front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="33"/>
        <source>variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="34"/>
        <source>status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="35"/>
        <source>feasible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="36"/>
        <source>pareto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="39"/>
        <source>message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="39"/>
        <source>%s (minimize)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="43"/>
        <source>%s (maximize)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="50"/>
        <source>Results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="64"/>
        <source>Metric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="65"/>
        <source>vs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="218"/>
        <source>and</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="67"/>
        <source>as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="78"/>
        <source>Export PNG ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="79"/>
        <source>Export CSV ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="80"/>
        <source>Apply best</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="83"/>
        <source>Keep the results (OK), then give the document the best variant&apos;s values (one undo step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="378"/>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="194"/>
        <source>Run the study to see its results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="200"/>
        <source>variants</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="202"/>
        <source>Pareto front (%d)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="243"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="247"/>
        <source>best</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="268"/>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="270"/>
        <source>CSV table (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_parameter_study.py" line="28"/>
        <source>SimPhant: apply best</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_results.py" line="285"/>
        <source>No best variant: choose a best variant (objective) and run the study.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="30"/>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="36"/>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="31"/>
        <source>Values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="31"/>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="32"/>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="32"/>
        <source>Count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="33"/>
        <source>Low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="33"/>
        <source>High</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="34"/>
        <source>Rel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="37"/>
        <source>Object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="37"/>
        <source>Component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="38"/>
        <source>Reducer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="38"/>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="40"/>
        <source>Expression</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="47"/>
        <source>In this process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="48"/>
        <source>Local cores (Dask)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="49"/>
        <source>Dask scheduler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="140"/>
        <source>Design variables (values in the property&apos;s unit, as the property editor shows them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="144"/>
        <source>Target: OBJECT.PROPERTY[.COMPONENT] (pick or type). Grid: Values &apos;1, 2, 3&apos; or Start/Stop/Count. Sampled designs and the optimiser: Low/High or Rel (+- fraction of the document&apos;s value)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="147"/>
        <source>Metrics (SI units)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="151"/>
        <source>A reducer of a result signal (&apos;at&apos; takes a time [s], &apos;percentile&apos; a q, &apos;first_crossing&apos; a level and a direction), or an Expression with arithmetic: max(spring_force(Suspension)) / 1000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="227"/>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="194"/>
        <source>Design</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="195"/>
        <source>samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="196"/>
        <source>seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="247"/>
        <source>workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="205"/>
        <source>Optimiser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="206"/>
        <source>trials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="207"/>
        <source>in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="216"/>
        <source>A second objective: the Pareto front of both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="217"/>
        <source>Best variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="221"/>
        <source>e.g. travel &lt;= 0.14; peak_force &lt; 3000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="222"/>
        <source>Constraints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="225"/>
        <source>the study&apos;s (%s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="22"/>
        <source>End time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="229"/>
        <source>timeout per variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="245"/>
        <source>tcp://host:8786</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="266"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="249"/>
        <source>Cache results in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="252"/>
        <source>Finished variants are kept under their fingerprint: a rerun simulates only what is new</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="267"/>
        <source>Cancel run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="305"/>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="306"/>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="383"/>
        <source>minimize %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="384"/>
        <source>maximize %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="476"/>
        <source>the result cache needs a directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="parameter_study_spec.py" line="491"/>
        <source>Parameter study &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="19"/>
        <source>SimPhant body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="21"/>
        <source>Body &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="22"/>
        <source>Mass properties</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="37"/>
        <source>Mass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="28"/>
        <source>CoG (world)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="29"/>
        <source>Centre of gravity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="30"/>
        <source>Principal moments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="31"/>
        <source>Principal moment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="35"/>
        <source>density %.6g kg/m^3 (%s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="36"/>
        <source>Computed with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="39"/>
        <source>0 = from the object&apos;s material (else a default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="74"/>
        <source>Density</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="41"/>
        <source>0: the material of the solid, else a default density</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="43"/>
        <source>Replaces volume x density (0 = not used)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="75"/>
        <source>Mass override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="45"/>
        <source>Fixed (the ground)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="47"/>
        <source>A fixed body is the ground: it does not move</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="50"/>
        <source>Initial motion (world axes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="52"/>
        <source>Velocity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="53"/>
        <source>Initial velocity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="55"/>
        <source>deg/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="56"/>
        <source>rpm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="59"/>
        <source>Angular velocity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body.py" line="78"/>
        <source>%s must be 0 or positive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="32"/>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="33"/>
        <source>End value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="34"/>
        <source>Amplitude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="35"/>
        <source>Rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="42"/>
        <source>Start time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="38"/>
        <source>Frequency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="45"/>
        <source>Phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="43"/>
        <source>Pick the body&apos;s element</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="47"/>
        <source>Pick the axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="56"/>
        <source>SimPhant driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="60"/>
        <source>Driver &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="75"/>
        <source>Driven</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="66"/>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="67"/>
        <source>Picked in the 3D view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="85"/>
        <source>Motion %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="76"/>
        <source>Motion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="82"/>
        <source>Function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_body_driver.py" line="100"/>
        <source>%s in t [s], SI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="101"/>
        <source>Refused: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="34"/>
        <source>SimPhant coupler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="37"/>
        <source>Coupler &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="39"/>
        <source>Coupling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="45"/>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="57"/>
        <source>Joint %d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="61"/>
        <source>Ratio N2/N1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="62"/>
        <source>tooth counts or pitch radii</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="64"/>
        <source>Pitch radius</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_coupler.py" line="65"/>
        <source>Lead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="33"/>
        <source>Angle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="35"/>
        <source>End angle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="36"/>
        <source>Angle amplitude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="37"/>
        <source>Speed [rpm]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="25"/>
        <source>Distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="39"/>
        <source>End distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="40"/>
        <source>Distance amplitude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="41"/>
        <source>Velocity [mm/s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="44"/>
        <source>Frequency [Hz]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="62"/>
        <source>Driven joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="72"/>
        <source>%s (%s joints)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="98"/>
        <source>the value, the start or the offset, by the function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="102"/>
        <source>Expression in t [s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_driver.py" line="103"/>
        <source>SI (rad or m), e.g. 0.5*sin(2*pi*t)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="27"/>
        <source>Stiffness</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="28"/>
        <source>Damping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="30"/>
        <source>rotation about the joint z axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="33"/>
        <source>translation along the joint z axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="40"/>
        <source>Lower limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="41"/>
        <source>Upper limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="43"/>
        <source>compliant (contact force law)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="47"/>
        <source>impulsive (coefficient of restitution)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="47"/>
        <source>impact (as the end stops)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="51"/>
        <source>Hunt-Crossley (restitution)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="51"/>
        <source>sphere, radius %g mm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="53"/>
        <source>exact cylinder, radius %g mm, length %g mm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="57"/>
        <source>convex hull of its tessellation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="61"/>
        <source>SimPhant force element</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="72"/>
        <source>On joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="73"/>
        <source>Between</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="77"/>
        <source>Degree of freedom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="86"/>
        <source>e.g. &apos;10 %s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="89"/>
        <source>or a table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="92"/>
        <source>rows &apos;x, force; ...&apos; [%s, N or N m]; replaces %s when not empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="96"/>
        <source>its value at the start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="99"/>
        <source>Free length / rest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="100"/>
        <source>otherwise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="102"/>
        <source>Preload [N]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="103"/>
        <source>Force [N]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="105"/>
        <source>Value [N m or N]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="112"/>
        <source>or a function of t [s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="114"/>
        <source>e.g. 2*sin(2*pi*t); replaces Value when not empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="124"/>
        <source>Limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="125"/>
        <source>at (e.g. &apos;30 %s&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="153"/>
        <source>Force exponent e (k p^e)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="155"/>
        <source>Full damping depth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="131"/>
        <source>e.g. 0.1 %s; the damping grows from zero at first touch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="157"/>
        <source>Law</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="159"/>
        <source>Coefficient of restitution e</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="135"/>
        <source>Rests below the speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="137"/>
        <source>impulsive: e.g. 1 %s; slower impacts are held by the contact law</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="145"/>
        <source>First solid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="146"/>
        <source>Second solid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="169"/>
        <source>e.g. 0.1 %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="161"/>
        <source>at the impact speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="163"/>
        <source>Hunt-Crossley: e.g. 1000 %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="164"/>
        <source>Static friction coefficient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="166"/>
        <source>Dynamic friction coefficient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="168"/>
        <source>Stiction below the speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="170"/>
        <source>Dynamic friction above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="171"/>
        <source>e.g. 1 %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="172"/>
        <source>Sample spacing on edges</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="174"/>
        <source>first solid: e.g. 2 %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="175"/>
        <source>Tessellation deflection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_force_element.py" line="176"/>
        <source>e.g. 0.05 %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="50"/>
        <source>&apos;%s&apos; is in another document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="127"/>
        <source>Edit joint &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="358"/>
        <source>New joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="141"/>
        <source>Joint kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="146"/>
        <source>Click, then pick a vertex, edge or face to replace this reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="148"/>
        <source>Reference %d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="153"/>
        <source>Side 2 stands this far ahead of side 1 along the joint axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="155"/>
        <source>Offset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="156"/>
        <source>Reverse the joint axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="164"/>
        <source>Angle joints: the kept angle between the joint z axes (0: the angle as picked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="488"/>
        <source>Align</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="174"/>
        <source>Move the body of reference 2 (of reference 1 when that of reference 2 is fixed) into place so that the frames meet the joint; one undo step. Only that body moves: bodies joined to it by other joints stay where they are</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="176"/>
        <source>Set offset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="178"/>
        <source>Keep the bodies where they are: set Offset so that the frames stay as far apart along the joint axis as picked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="228"/>
        <source>Cannot align: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="231"/>
        <source>Align &apos;%s&apos; to joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="302"/>
        <source>&apos;%s&apos; is on body &apos;%s&apos; like reference %d; a joint connects two different bodies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="321"/>
        <source>&apos;%s&apos; selected, not as a reference (%s). Hide other parts or Space hides it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="344"/>
        <source>%s; pick it again, or Cancel and Check model to re-point it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="368"/>
        <source>%s.%s  (body &apos;%s&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="370"/>
        <source>(not picked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="372"/>
        <source>pick a vertex, edge or face</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="384"/>
        <source>Pick reference %d: a vertex, edge or face of a body of study &apos;%s&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="388"/>
        <source>Pick reference %d: a vertex, edge or face of a body of study &apos;%s&apos; other than &apos;%s&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="400"/>
        <source>Cannot keep this reference: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="405"/>
        <source>Cannot make this joint: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="414"/>
        <source>Ready: press OK to update the joint (%s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="416"/>
        <source>Ready: press OK to create the joint (%s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="427"/>
        <source>Aligned: the two frames meet the joint&apos;s constraints.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="435"/>
        <source>Not aligned: the frames are %.4g mm and %.4g deg from meeting the joint (%.4g mm along the axis). A Solve first moves the bodies to close the gap, or fails; Align moves the body into place, Set offset keeps the gap along the axis, or pick other elements.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="469"/>
        <source>Not ready: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="473"/>
        <source>Edit SimPhant joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="474"/>
        <source>Add SimPhant joint (%s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="519"/>
        <source>SimPhant joint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="487"/>
        <source>Align the body now, keep the frames as they are, or go back to the panel?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="489"/>
        <source>Keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_joint.py" line="490"/>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="25"/>
        <source>SimPhant load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="29"/>
        <source>Torque</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="30"/>
        <source>Force</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="33"/>
        <source>On body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="69"/>
        <source>Constant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="36"/>
        <source>Function of time t [s]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="45"/>
        <source>e.g. 0, 0, 10*sin(2*pi*t)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="50"/>
        <source>World axes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="51"/>
        <source>Body axes (turning with the body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="53"/>
        <source>Components in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="56"/>
        <source>Point of application</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="61"/>
        <source>Use the centre of gravity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="widgets.py" line="551"/>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="91"/>
        <source>the centre of gravity (pick a vertex, edge or face of the body in the 3D view to change it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_load.py" line="94"/>
        <source>%s.%s (pick another element to change it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="87"/>
        <source>Starting %d variants ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="92"/>
        <source>SimPhant: parameter study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="106"/>
        <source>%d variants: %d ok, %d failed, %d lost, %d not run; %.1f s (%s).%s OK keeps the results.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="109"/>
        <source>nothing run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="123"/>
        <source>%d of %d variants (%d failed, %d lost, %d from the cache)   elapsed %.1f s   %s%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_parameter_study.py" line="141"/>
        <source>SimPhant parameter study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_base.py" line="179"/>
        <source>Edit %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="56"/>
        <source>Study &apos;%s&apos; has no result yet: solve it first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="78"/>
        <source>SimPhant: playback of &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="88"/>
        <source>Playback: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="111"/>
        <source>Previous frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="115"/>
        <source>Play / pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="119"/>
        <source>Next frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="123"/>
        <source>Previous end stop contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="127"/>
        <source>Next end stop contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="133"/>
        <source>Loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="135"/>
        <source>Playback speed: 1 = real time (0.1 to 10)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="146"/>
        <source>Reset to the start pose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="148"/>
        <source>Put the bodies exactly where they were when the run started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="153"/>
        <source>%d frames, t = %.4g .. %.4g s (%s, %d steps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="171"/>
        <source>t = %.4f s    frame %d / %d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="249"/>
        <source>start pose (t = %.4f s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="259"/>
        <source>SimPhant playback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_playback.py" line="262"/>
        <source>Keep the pose shown (t = %.4g s)?
No puts the bodies back where they were before playback.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="16"/>
        <source>SimPhant study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="19"/>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="21"/>
        <source>Simulated time span</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="26"/>
        <source>Step of the fixed-step integrators; largest step of the adaptive ones (0 = unlimited)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="27"/>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="30"/>
        <source>Time between stored frames (0 = at most 1000 frames)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="31"/>
        <source>Output interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="32"/>
        <source>Integrator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="39"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="43"/>
        <source>Relative tolerance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="44"/>
        <source>Absolute tolerance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="45"/>
        <source>Stabilisation of the constraints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="47"/>
        <source>Time constant and damping ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="49"/>
        <source>Baumgarte alpha, beta</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="51"/>
        <source>Set by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="54"/>
        <source>Decay time of constraint errors (0 = automatic: max(0.02 s, 5 steps))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="55"/>
        <source>Time constant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="57"/>
        <source>Damping ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="60"/>
        <source>Alpha</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="61"/>
        <source>Beta</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="63"/>
        <source>Gravity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="67"/>
        <source>Acceleration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="70"/>
        <source>Direction (x, y, z)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="task_study.py" line="97"/>
        <source>%s: %r is not a number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="widgets.py" line="324"/>
        <source>Units: s, ms, us (%s); e.g. 0.5 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="widgets.py" line="465"/>
        <source>SimPhant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="widgets.py" line="529"/>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_base.py" line="183"/>
        <source>Solve &apos;%s&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_base.py" line="185"/>
        <source>Set active study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_joint.py" line="31"/>
        <source>%s: %s is not on a body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_parameter_study.py" line="31"/>
        <source>Apply best variant (%d)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="view_result.py" line="52"/>
        <source>Playback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="11"/>
        <source>Fixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="12"/>
        <source>Welds the two bodies together (removes 6 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="13"/>
        <source>Revolute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="14"/>
        <source>Hinge: rotation about the joint z axis (removes 5 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="15"/>
        <source>Prismatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="16"/>
        <source>Slider: translation along the joint z axis (removes 5 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="17"/>
        <source>Cylindrical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="18"/>
        <source>Rotation about and translation along the joint z axis (removes 4 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="19"/>
        <source>Spherical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="20"/>
        <source>Ball joint: the two anchor points coincide (removes 3 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="21"/>
        <source>Planar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="22"/>
        <source>Body 2 slides on the plane normal to the joint z axis (removes 3 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="23"/>
        <source>Universal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="24"/>
        <source>Cardan joint: cross axes x (body 1) and y (body 2) stay perpendicular (removes 4 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="26"/>
        <source>Keeps the distance between two points constant (removes 1 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="27"/>
        <source>Revolute-spherical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="28"/>
        <source>Point of body 2 on a circle about the joint z axis of body 1 (removes 2 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="29"/>
        <source>Parallel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="30"/>
        <source>The joint z axes of the two bodies stay parallel (removes 2 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="31"/>
        <source>Perpendicular</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="32"/>
        <source>The joint z axes of the two bodies stay perpendicular (removes 1 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="34"/>
        <source>The joint z axes of the two bodies keep a constant angle (removes 1 DOF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="35"/>
        <source>Spring-damper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="36"/>
        <source>Translational spring and damper between two body points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="37"/>
        <source>Damper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="38"/>
        <source>Damper on the rate of change of the distance of two body points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="39"/>
        <source>Contractile force</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="40"/>
        <source>Force of constant magnitude along the line of two body points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="41"/>
        <source>Joint spring-damper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="42"/>
        <source>Torsional or linear spring and damper on a joint&apos;s axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="43"/>
        <source>Joint actuator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="44"/>
        <source>Prescribed moment about or force along a joint&apos;s z axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="45"/>
        <source>End stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="46"/>
        <source>End stop (joint limit) on a joint&apos;s angle or slide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="47"/>
        <source>Contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="48"/>
        <source>Contact (normal force and friction) between two bodies&apos; convex solids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="49"/>
        <source>Rotation driver (motor)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="50"/>
        <source>Prescribes the joint&apos;s rotation about its z axis (a motor)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="51"/>
        <source>Translation driver (actuator)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="52"/>
        <source>Prescribes the joint&apos;s translation along its z axis (a linear actuator)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="53"/>
        <source>Point trajectory driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="54"/>
        <source>Moves a point of a body along a prescribed trajectory x(t), y(t), z(t) (world axes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="55"/>
        <source>Angle driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="56"/>
        <source>Prescribes the angle from a vector of body 1 to a vector of body 2 about an axis of body 1 (body 1 may be ground: the orientation of a body vector)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="57"/>
        <source>Direction driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="58"/>
        <source>Points a vector of a body along a prescribed direction u(t) (world axes or those of a second body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="59"/>
        <source>Gear pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="60"/>
        <source>External gear pair: the gears turn in opposite senses, gear 2 at 1/ratio of gear 1&apos;s rate (ratio = N2/N1, tooth counts or pitch radii)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="61"/>
        <source>Belt / chain / internal gear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="62"/>
        <source>Belt, chain or internal gear: the two wheels turn in the same sense, wheel 2 at 1/ratio of wheel 1&apos;s rate (ratio = N2/N1 or r2/r1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="63"/>
        <source>Rack and pinion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="64"/>
        <source>Pinion (joint 1) on a rack (joint 2): the pinion turns by s / radius about its joint axis as the rack moves by s along its joint axis (pitch radius [m]; its sign sets the sense)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="65"/>
        <source>Screw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="66"/>
        <source>Screw along one cylindrical joint: body 2 advances by lead per turn about the joint axis (lead [m]; negative: left-handed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="67"/>
        <source>Lead screw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="68"/>
        <source>Screw on a revolute joint (joint 1) driving a nut on a slider joint along its axis (joint 2): the nut advances by lead per turn of the screw relative to it (lead [m]; negative: left-handed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="70"/>
        <source>Constant rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="71"/>
        <source>Smooth step (cubic)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="72"/>
        <source>Smooth step (quintic)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="73"/>
        <source>Harmonic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="74"/>
        <source>Expression in t</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="75"/>
        <source>the driven point: a vertex, or the centre of an edge or face of the body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="76"/>
        <source>the vector of the body whose angle is driven: an edge or face of the body, projected onto the plane normal to the axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="77"/>
        <source>the axis of the angle: an edge or face of Body1, or of a fixed body when Body1 is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="78"/>
        <source>the vector of the body that is pointed: an edge or face of the body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="79"/>
        <source>explicit Euler, fixed step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="80"/>
        <source>semi-implicit Euler (velocities first, positions with the new velocities)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="81"/>
        <source>classical 4th-order Runge-Kutta, fixed step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="82"/>
        <source>SciPy Dormand-Prince 5(4), adaptive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="83"/>
        <source>SciPy Dormand-Prince 8(5,3), adaptive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="84"/>
        <source>SciPy implicit Radau IIA, adaptive (stiff)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="85"/>
        <source>SciPy backward differentiation, adaptive (stiff)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="86"/>
        <source>SciPy LSODA (switches stiff/non-stiff)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="87"/>
        <source>CoG position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="88"/>
        <source>CoG velocity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="89"/>
        <source>CoG acceleration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="90"/>
        <source>angular velocity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="91"/>
        <source>angular acceleration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="92"/>
        <source>Euler angles (Z-Y-X)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="93"/>
        <source>point position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="94"/>
        <source>point velocity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="95"/>
        <source>reaction force</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="96"/>
        <source>reaction torque</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="97"/>
        <source>joint angle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="98"/>
        <source>joint angle rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="99"/>
        <source>joint angle acceleration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="100"/>
        <source>joint slide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="101"/>
        <source>joint slide rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="102"/>
        <source>joint slide acceleration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="103"/>
        <source>force element force / moment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="104"/>
        <source>force element length / angle / slide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="105"/>
        <source>force element power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="106"/>
        <source>driver effort (torque / force)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="107"/>
        <source>driver power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="108"/>
        <source>driver work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="109"/>
        <source>energy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="110"/>
        <source>constraint violation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="111"/>
        <source>world axes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="112"/>
        <source>body axes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="113"/>
        <source>joint frame (body 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="114"/>
        <source>joint frame 2 against joint frame 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="115"/>
        <source>line point 1 -&gt; point 2, or joint z axis, on body 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="registry_strings.py" line="116"/>
        <source>joint z axis on body 2 (point driver: world axes)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_AcceptReferences</name>
    <message>
        <location filename="cmd_run.py" line="65"/>
        <source>Accept current elements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="71"/>
        <source>When a referenced face, edge or vertex was changed on purpose (a pin made larger) and Check model or Solve refuses it: take the references of the selected joints, loads and force elements (or of every member of the selected study) as they are now, in one undo step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_AddBody</name>
    <message>
        <location filename="cmd_model.py" line="88"/>
        <source>Add body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="93"/>
        <source>Make the selected solids moving bodies of the active study (several at once); mass, CoG and inertia come from the solids and their density</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_AddFixedBody</name>
    <message>
        <location filename="cmd_model.py" line="97"/>
        <source>Add fixed body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="99"/>
        <source>Make the selected solids fixed bodies (the ground) of the active study</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_AddForce</name>
    <message>
        <location filename="cmd_model.py" line="156"/>
        <source>Add force</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="161"/>
        <source>Add a force on the selected moving body, at the selected vertex, edge or face (else at its CoG); constant or a function of time t</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_AddTorque</name>
    <message>
        <location filename="cmd_model.py" line="165"/>
        <source>Add torque</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="167"/>
        <source>Add a pure torque on the selected moving body; constant or a function of time t</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_Check</name>
    <message>
        <location filename="cmd_run.py" line="33"/>
        <source>Check model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="38"/>
        <source>Check the study before solving: bodies, joints, loads, degrees of freedom (mobility, redundant joints, singular or locked mechanisms) and how far the joints are from assembled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_CheckDependencies</name>
    <message>
        <location filename="cmd_run.py" line="147"/>
        <source>Check dependencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="152"/>
        <source>Check what the solver needs in FreeCAD&apos;s Python (numpy, scipy, numba, llvmlite: present, versions, agreeing) and show the commands that install what is missing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_CheckInterference</name>
    <message>
        <location filename="results_commands.py" line="117"/>
        <source>Check interference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="122"/>
        <source>Do the bodies collide anywhere along the result, between its frames too? Lists per pair the intervals of interference and their depth or the smallest clearance, and shows the first contact</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ExportAnimation</name>
    <message>
        <location filename="results_commands.py" line="179"/>
        <source>Export animation (GIF/MP4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="182"/>
        <source>Record the 3-D view playing the result as an MP4 or GIF, choosing size and frame rate</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ExportResultPlots</name>
    <message>
        <location filename="results_commands.py" line="163"/>
        <source>Export result plots (PNG)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="167"/>
        <source>Write the plots of simphant run (positions, energy, reactions, joints, force elements, drivers) into a folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ExportResultsCSV</name>
    <message>
        <location filename="results_commands.py" line="147"/>
        <source>Export results as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="151"/>
        <source>Write the CSV tables of simphant run (bodies, reactions, energy, joints, force elements, drivers) into a folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ForceElements</name>
    <message>
        <location filename="cmd_forces.py" line="112"/>
        <source>Force elements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_forces.py" line="115"/>
        <source>Add a spring, damper, contractile force, joint spring or joint actuator to the active study</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_HideOthers</name>
    <message>
        <location filename="cmd_view.py" line="58"/>
        <source>Hide other parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_view.py" line="62"/>
        <source>Hide every part but the selected ones (in the 3-D view or the tree, also while a panel is open); Show hidden parts shows them again</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ImportAssembly</name>
    <message>
        <location filename="cmd_model.py" line="175"/>
        <source>Import FreeCAD Assembly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="186"/>
        <source>Make a study from the selected FreeCAD Assembly: one body per part (grounded parts fixed), one joint per supported Assembly joint, frames kept</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_Joints</name>
    <message>
        <location filename="cmd_joints.py" line="61"/>
        <source>Joints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_joints.py" line="64"/>
        <source>Add a joint between two bodies of the active study: pick a vertex, edge or face on each</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_LoadsToFEM</name>
    <message>
        <location filename="cmd_fem.py" line="88"/>
        <source>Loads to FEM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_fem.py" line="93"/>
        <source>Stress analysis of the selected body at an instant of the result: its joint loads, gravity and inertia handed to a FreeCAD FEM analysis (CalculiX); shows von Mises stress and the peak</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_MarkersSelectable</name>
    <message>
        <location filename="cmd_view.py" line="35"/>
        <source>Markers selectable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_view.py" line="39"/>
        <source>When on, clicks on joint triads, centres of gravity and load arrows select their object; when off (the default) clicks go through them to the faces behind</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_NewParameterStudy</name>
    <message>
        <location filename="cmd_sweep.py" line="32"/>
        <source>New parameter study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_sweep.py" line="36"/>
        <source>Add a parameter study to the active study: sweep properties (design variables), compute metrics of each run, plot a metric against the variables</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_NewStudy</name>
    <message>
        <location filename="cmd_model.py" line="27"/>
        <source>New study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="31"/>
        <source>Add a motion study (the container of bodies, joints, loads and the result) and make it the active study</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_Playback</name>
    <message>
        <location filename="cmd_run.py" line="111"/>
        <source>Playback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="114"/>
        <source>Play the study&apos;s result back on the document: time slider, play/pause, speed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_PlotResults</name>
    <message>
        <location filename="results_commands.py" line="86"/>
        <source>Plot results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="90"/>
        <source>Plot a quantity of the selected bodies / joints against time (position, velocity, reactions, energy, ...), in the units of your preferences</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_Reset</name>
    <message>
        <location filename="cmd_run.py" line="130"/>
        <source>Reset placements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="133"/>
        <source>Put the bodies back exactly where they were when the last run started</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ResultsViewer</name>
    <message>
        <location filename="results_commands.py" line="99"/>
        <source>3-D results viewer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="results_commands.py" line="103"/>
        <source>Open the result in a separate 3-D viewer (PyVista): orbit, scrub the time, play at any speed, joint frames, CoG trails, body picker</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_SetActiveStudy</name>
    <message>
        <location filename="cmd_model.py" line="46"/>
        <source>Set active study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_model.py" line="49"/>
        <source>New bodies, joints and loads go into the selected study</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ShowHidden</name>
    <message>
        <location filename="cmd_view.py" line="77"/>
        <source>Show hidden parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_view.py" line="80"/>
        <source>Show again the parts Hide other parts hid</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_ShowMarkers</name>
    <message>
        <location filename="cmd_view.py" line="47"/>
        <source>Show markers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_view.py" line="50"/>
        <source>Show or hide all joint triads, centres of gravity and load arrows (one object&apos;s: select it and press Space)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimPhant_Solve</name>
    <message>
        <location filename="cmd_run.py" line="92"/>
        <source>Solve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="cmd_run.py" line="96"/>
        <source>Run the motion study in the background (FreeCAD stays usable; Cancel in the progress window); the result is stored in the study</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Workbench</name>
    <message>
        <location filename="__init__.py" line="30"/>
        <source>SimPhant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="__init__.py" line="31"/>
        <source>SimPhant model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="__init__.py" line="36"/>
        <source>SimPhant run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="__init__.py" line="39"/>
        <source>SimPhant results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="__init__.py" line="43"/>
        <source>SimPhant view</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
