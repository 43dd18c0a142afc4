# The e2e tests labelled slow (excluded from the `ci` test preset), read by ctest after the tests
# gtest_discover_tests found: it cannot pass a list such as "e2e;slow" as one property.
# formats_fixture.catch2_xml_reporter compiles Catch2's main first: 149 s on a loaded 2-core host.
set_tests_properties(formats_fixture.catch2_xml_reporter PROPERTIES LABELS "e2e;slow")
