"""The document -> solver conversion, under the name scripts have used since the start.

The code lives in ``SimPhantWorkbench.document`` (``conversion``, ``units``, ``bodies``,
``joints``, ``elements``, ``settings``); this module re-exports its public names.
"""
from .document.bodies import BodyData, body_data, body_of_object, reused_body_data, \
    update_body_properties
from .document.conversion import Conversion, check_enumerations, convert, solver_names, \
    study_dof_report
from .document.elements import FORCE_UNITS, driver_data, driver_motion, force_element_params, \
    force_geometry, parse_time_function
from .document.joints import JointData, frame_source, joint_data, joint_local_frames, \
    reference_of, update_joint_properties
from .document.massprops import ancestors, container_placement
from .document.settings import analysis_mode, gravity_vector, simulation_settings
from .document.units import M_PER_MM, frame_to_placement, global_placement, \
    matrix_to_rotation, placement_to_frame, quantity_si, quat_to_rotation, rotation_to_matrix, \
    rotation_to_quat, vector_array
from .solver.expressions import format_vector_function

__all__ = [
    "M_PER_MM", "quantity_si", "vector_array", "rotation_to_quat", "quat_to_rotation",
    "rotation_to_matrix", "matrix_to_rotation", "placement_to_frame", "frame_to_placement",
    "container_placement", "global_placement", "parse_time_function", "format_vector_function",
    "BodyData", "body_data", "reused_body_data", "ancestors", "body_of_object", "reference_of",
    "JointData", "joint_data", "frame_source", "joint_local_frames", "update_body_properties",
    "update_joint_properties", "gravity_vector", "simulation_settings", "analysis_mode",
    "check_enumerations", "Conversion", "convert", "FORCE_UNITS", "force_geometry",
    "force_element_params", "driver_data", "driver_motion", "solver_names", "study_dof_report",
]
