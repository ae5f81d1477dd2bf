"""Body: one rigid body of a study, made of one shape object.

The shape object may be a Part feature, a PartDesign Body, an App::Part or an
App::Link (placements of nested containers are resolved globally). The body's
own frame is the shape object's global placement; the mass properties come from
its solid(s):

``MassOverride`` (if > 0) > ``Density`` (if > 0) > the object's material >
a default density (with a warning naming the object).

``execute`` only refreshes the read-only mass properties shown in the property
editor; the conversion module recomputes them itself for every run.
"""
from ..document.bodies import update_body_properties
from .base import BaseProxy, prop

__all__ = ["Body"]

TYPE = "SimPhant::Body"


class Body(BaseProxy):
    """Proxy of a SimPhant rigid body (``SimPhant::Body``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyLinkGlobal", "ShapeObject", "Body",
             "The solid this body moves: Part feature, PartDesign Body, App::Part or App::Link"),
        prop("App::PropertyBool", "Fixed", "Body",
             "The body does not move (it is the ground of the joints attached to it)",
             default=False),
        prop("App::PropertyFloat", "Density", "Mass",
             "Density [kg/m^3]; 0 = from the object's material (else a default, with a warning)",
             default=0.0),
        prop("App::PropertyFloat", "MassOverride", "Mass",
             "Mass [kg] that replaces volume x density (inertia scaled to match); 0 = not used",
             default=0.0),
        prop("App::PropertyVector", "InitialVelocity", "Initial conditions",
             "Velocity of the centre of gravity at t = 0 [mm/s], world axes"),
        prop("App::PropertyVector", "InitialAngularVelocity", "Initial conditions",
             "Angular velocity at t = 0 [deg/s], world axes"),
        # computed on recompute (read-only)
        prop("App::PropertyFloat", "Mass", "Mass properties", "Mass [kg] (computed)",
             read_only=True, output=True),
        prop("App::PropertyVolume", "Volume", "Mass properties", "Volume of the solid (computed)",
             read_only=True, output=True),
        prop("App::PropertyFloat", "DensityUsed", "Mass properties",
             "Density [kg/m^3] the mass was computed with (computed)", read_only=True, output=True),
        prop("App::PropertyString", "DensitySource", "Mass properties",
             "Where the density comes from: override-mass, argument (the Density property), "
             "material or default (computed)", read_only=True, output=True),
        prop("App::PropertyVectorDistance", "CoG", "Mass properties",
             "Centre of gravity, world coordinates (computed)", read_only=True, output=True),
        prop("App::PropertyVector", "PrincipalMoments", "Mass properties",
             "Principal moments of inertia about the CoG [kg mm^2] (computed)", read_only=True,
             output=True),
        prop("App::PropertyRotation", "PrincipalAxes", "Mass properties",
             "Principal axes of inertia (the columns of this rotation, world axes; computed)",
             read_only=True, output=True),
    )

    def execute(self, obj):
        """Refresh the read-only mass properties (cheap; never simulates)."""
        update_body_properties(obj)
