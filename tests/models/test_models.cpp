#include "core/config/modelcatalog.h"
#include "models/modelfactory.h"
#include "models/resnet50.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

using namespace synctax;

namespace {

int64_t parameterCount(const torch::nn::Module& module)
{
    int64_t n = 0;
    for (const auto& p : module.parameters())
        n += p.numel();
    return n;
}

BuiltModel buildDefault(const std::string& name)
{
    const auto d = findModel(name);
    EXPECT_TRUE(d.has_value());
    return buildModel({ d->name, d->width, d->inputSize, d->classes });
}

} // namespace

TEST(Models, ResNet50HasTorchvisionsParameterCount)
{
    ResNet50 model;
    EXPECT_EQ(parameterCount(*model), 25'557'032);
}

TEST(Models, ResNet50ThroughTheFactoryMatchesTheModule)
{
    auto built = buildDefault("resnet50");
    EXPECT_EQ(parameterCount(*built.module), 25'557'032);
    EXPECT_EQ(built.inputs.at(0).shape, (std::vector<int64_t> { 3, 224, 224 }));
}

TEST(Models, TinyMlpMapsFeaturesToClasses)
{
    auto built = buildDefault("tiny_mlp");
    auto out = built.forward({ torch::randn({ 3, 256 }) });
    EXPECT_EQ(out.sizes(), (std::vector<int64_t> { 3, 10 }));
    // 256*512+512 + 2*(512*512+512) + 512*10+10
    EXPECT_EQ(parameterCount(*built.module), 131584 + 2 * 262656 + 5130);
}

TEST(Models, SmallResNetTakesCifarImages)
{
    auto built = buildDefault("small_resnet");
    auto out = built.forward({ torch::randn({ 2, 3, 32, 32 }) });
    EXPECT_EQ(out.sizes(), (std::vector<int64_t> { 2, 10 }));
}

TEST(Models, ResNet50RunsOnSmallImagesWithFewerClasses)
{
    auto built = buildModel({ "resnet50", 64, 64, 7 });
    auto out = built.forward({ torch::randn({ 1, 3, 64, 64 }) });
    EXPECT_EQ(out.sizes(), (std::vector<int64_t> { 1, 7 }));
}

TEST(Models, WidthIsConfigurable)
{
    auto narrow = buildModel({ "small_resnet", 16, 32, 10 });
    auto wide = buildModel({ "small_resnet", 32, 32, 10 });
    EXPECT_LT(parameterCount(*narrow.module) * 3, parameterCount(*wide.module));
}

TEST(Models, EveryCatalogEntryBuilds)
{
    for (const auto& name : modelNames())
        EXPECT_NO_THROW(buildDefault(name)) << name;
}

TEST(Models, UnknownNameIsRejected) { EXPECT_THROW(buildModel({ "vgg16", 64, 224, 1000 }), std::invalid_argument); }
