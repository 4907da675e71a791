"""The spec's record shapes (section 2 of catalogue-api-v1.md), written out once so that the model
and property tests work without the spec file (``test_models_decode`` checks them against it)."""

from typing import Any

from catalogue_desktop.core.kinds import Kind

# The spec's record shapes (section 2), written out so that the property tests work without it.
# Types: int, str, bool, date, decimal, code (Webinar.type), or ("list", RecordName).
SHAPES: dict[str, dict[str, Any]] = {
    "Expert": {"expertId": "int", "name": "str", "title": "str", "bio": "str", "education": "str",
               "imageUrl": "str", "image2xUrl": "str"},
    "Topic": {"topicId": "int", "title": "str", "description": "str"},
    "Role": {"roleId": "int", "title": "str", "description": "str"},
    "Situation": {"situationId": "int", "title": "str", "description": "str"},
    "Webinar": {"webinarId": "int", "sessionId": "int", "type": "code", "title": "str",
                "description": "str", "fee": "int", "cleAccreditation": "bool",
                "cpeAccreditation": "bool", "productionDate": "date", "startDate": "date",
                "endDate": "date", "detailUrl": "str", "accessUrl": "str",
                "topics": ("list", "Topic"), "roles": ("list", "Role"),
                "situations": ("list", "Situation"), "experts": ("list", "Expert")},
    "Series": {"seriesId": "int", "title": "str", "description": "str", "fee": "int",
               "detailUrl": "str", "sessions": ("list", "Webinar")},
    "Course": {"courseId": "int", "title": "str", "description": "str", "curriculum": "str",
               "cleAccreditation": "bool", "cpeAccreditation": "bool",
               "experts": ("list", "Expert"), "level": "int", "url": "str",
               "topics": ("list", "Topic"), "locations": ("list", "Location"),
               "schedule": ("list", "Schedule")},
    "Location": {"locationId": "int", "venue": "str", "address": "str", "city": "str",
                 "state": "str", "zip": "str", "detailUrl": "str", "startDate": "date",
                 "endDate": "date", "fee": "int", "travelInfo": "str", "travelGroupRate": "str"},
    "Schedule": {"day": "int", "startTime": "str", "endTime": "str", "breakMins": "int",
                 "title": "str", "description": "str"},
    "Certificate": {"certificateId": "int", "title": "str", "description": "str",
                    "fee": "decimal", "imageUrl": "str", "levels": ("list", "Level")},
    "Level": {"id": "int", "type": "int", "selection": "int", "optionsMin": "int",
              "coursesMin": "int", "options": ("list", "Option"), "tracks": ("list", "Track"),
              "courses": ("list", "LevelCourse")},
    "Option": {"optionId": "int", "num": "int", "coursesMin": "int", "coursesTotal": "int",
               "coursesOperator": "str"},
    "Track": {"trackId": "int", "name": "str", "displayOrder": "int"},
    "LevelCourse": {"courseId": "int", "optionId": "int", "trackId": "int"},
}
# The field that identifies each record (required; all others may be null or absent).
ID_FIELDS = {
    "Expert": "expertId", "Topic": "topicId", "Role": "roleId", "Situation": "situationId",
    "Webinar": "webinarId", "Series": "seriesId", "Course": "courseId", "Location": "locationId",
    "Schedule": None, "Certificate": "certificateId", "Level": "id", "Option": "optionId",
    "Track": "trackId", "LevelCourse": "courseId",
}
KIND_RECORD = {
    Kind.WEBINARS: "Webinar", Kind.SERIES: "Series", Kind.COURSES: "Course",
    Kind.CERTIFICATES: "Certificate", Kind.EXPERTS: "Expert", Kind.TOPICS: "Topic",
    Kind.ROLES: "Role", Kind.SITUATIONS: "Situation",
}
